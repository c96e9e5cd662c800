-- Administration, part 1 (issue #8), continued: the account events the audit log records
-- besides administrators' writes.
--   activate  the user's first sign-in turned their invited account active (actor: the user)
--   invite    an administrator sent the set-password invitation again
alter table audit_log drop constraint audit_log_action_check;
alter table audit_log add constraint audit_log_action_check
  check (action in ('create', 'update', 'delete', 'assign', 'unassign', 'activate', 'invite'));
