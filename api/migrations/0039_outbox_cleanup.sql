-- The daily removal of finished image markings from the outbox (jobs/outbox-cleanup.ts): every
-- evidence image leaves one `mark-evidence` row (0036), and nothing reads a finished one again.
-- Claimed through scheduled_jobs as the other daily jobs are, so several API processes run it once.
insert into scheduled_jobs (name) values ('outbox-cleanup');
