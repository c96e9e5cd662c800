-- Marking after the upload's answer (issue #24 point 5; api/src/services/sessions/mark-evidence.ts,
-- api/README.md "Marking"). The upload stores the image and a `mark-evidence` outbox item in one
-- transaction; the outbox worker marks it afterwards.

-- The image waits for the worker's marking: an X-ray image of a configuration with a marking
-- scheme, stored but not marked yet. While any image of a session waits, the session has no
-- score (its score is derived from marked images only, and is not final yet).
alter table evidence add column marking_pending boolean not null default false;

-- The simulator completed a session launched from a learning platform while its images still
-- waited for marking: the grade the completion would have queued is queued by the last marking
-- instead (in its transaction, which clears this flag: once).
alter table simulation_sessions add column grade_awaits_marking boolean not null default false;
