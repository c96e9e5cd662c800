-- Deleting a row looks up the rows that point at it, through every foreign key that references
-- its table; without an index on the referencing column that look-up reads the whole table. On
-- the bench's database (48 000 reports, 95 000 images, 250 000 marks) deleting a user read all
-- marks (24 ms, for evidence_marks.overridden_by) and all sessions (16 ms, for
-- simulation_sessions.grade_released_by), and deleting a file read all images (22 ms, for
-- evidence.image_file_id); with a million reports each is a second or more of scanning while
-- the rows stay locked. Every foreign key of a table that grows with use has an index on its
-- referencing column now (test/db/foreign-key-indexes.test.ts keeps it so); the ones left
-- without are reference data's (lookups, roles, permissions, entitlements, categories), whose
-- rows are not deleted while in use.
--
-- Mostly-empty columns (who released a grade, who overrode a mark) get partial indexes, which
-- hold only the rows that name someone. Building these takes a write lock on each table for as
-- long as its index takes to build: seconds on a million reports, within the migration step
-- that runs before the API copies are restarted (docs/deploy.md, "Upgrading").
create index evidence_image_file_idx on evidence (image_file_id) where image_file_id is not null;
create index evidence_marks_overridden_by_idx on evidence_marks (overridden_by)
  where overridden_by is not null;
create index simulation_sessions_grade_released_by_idx on simulation_sessions (grade_released_by)
  where grade_released_by is not null;
create index simulation_sessions_configuration_idx on simulation_sessions (configuration_id)
  where configuration_id is not null;
create index audit_log_actor_idx on audit_log (actor_id) where actor_id is not null;
create index evidence_feedback_author_idx on evidence_feedback (author_id)
  where author_id is not null;
create index report_feedback_author_idx on report_feedback (author_id) where author_id is not null;
create index user_notifications_session_idx on user_notifications (session_uuid);
create index email_changes_requested_by_idx on email_changes (requested_by)
  where requested_by is not null;
create index lti_roster_syncs_requested_by_idx on lti_roster_syncs (requested_by)
  where requested_by is not null;
create index lti_registration_tokens_created_by_idx on lti_registration_tokens (created_by)
  where created_by is not null;
create index lti_registration_tokens_platform_idx on lti_registration_tokens (platform_id)
  where platform_id is not null;
create index lti_login_states_platform_idx on lti_login_states (platform_id);
create index lti_launches_platform_idx on lti_launches (platform_id);
create index lti_launch_tickets_launch_idx on lti_launch_tickets (launch_id);
create index lti_broker_bindings_launch_idx on lti_broker_bindings (launch_id);
create index lti_broker_codes_launch_idx on lti_broker_codes (launch_id);
create index lti_broker_codes_user_idx on lti_broker_codes (user_id);
create index brightspace_oauth_states_user_idx on brightspace_oauth_states (user_id);
