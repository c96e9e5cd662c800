-- Abuse limits (issue #7): a simulator session token dies 24 h after creation or after 2 h
-- without a simulator call, and a learner holds a bounded number of open sessions and stored bytes.

-- The last simulator call with the session's token; the creation time until the first call.
alter table simulation_sessions add column last_used_at timestamptz;
update simulation_sessions set last_used_at = coalesce(started_at, created_at);
alter table simulation_sessions
  alter column last_used_at set default now(),
  alter column last_used_at set not null;

-- A user's open sessions (the quota at creation), and the periodic close of stale ones; the
-- predicate matches the repository's `status in ('not_started', 'in_progress')`.
create index simulation_sessions_open_user_idx on simulation_sessions (user_id, created_at)
  where status in ('not_started', 'in_progress');

-- The stored-bytes quota sums a user's files.
create index files_owner_idx on files (owner_id);
