-- Several API processes on one PostgreSQL (issue #24 point 1).
--
-- Change notices: every write that can make an API process's cache stale announces itself on the
-- channel `portal_changes` from a trigger, so the notice is part of the writing transaction
-- (PostgreSQL delivers it on commit and drops it on rollback) whoever writes: a service, the outbox
-- worker, a command, or SQL by hand. The API's listener (src/db/change-notices.ts) drops what the
-- notice names. Payloads are small JSON: {"k": kind, "id": id}. A transaction that changes many
-- rows announces the first 200 one by one and then a single {"k": "all"} (drop everything), so a
-- mass update never floods the listeners. PGlite (one process, nobody listening) sets
-- `portal.announce_changes` to off for its one connection, and the triggers say nothing there.

create function portal_change_notice(kind text, id text) returns void
language plpgsql as $$
declare
  sent integer := coalesce(nullif(current_setting('portal.change_notices', true), ''), '0')::integer;
begin
  if current_setting('portal.announce_changes', true) = 'off' then
    return;
  end if;
  perform set_config('portal.change_notices', (sent + 1)::text, true);
  if sent < 200 then
    perform pg_notify('portal_changes', json_build_object('k', kind, 'id', id)::text);
  elsif sent = 200 then
    perform pg_notify('portal_changes', '{"k":"all"}');
  end if;
end $$;

-- A user row changed or went (role, organisation, language, names, account status, identity
-- subject): the signed-in user the auth cache holds.
create function portal_notice_user_row() returns trigger
language plpgsql as $$
begin
  perform portal_change_notice('user', old.id::text);
  return null;
end $$;
create trigger users_change_notice after update on users
  for each row when (old.* is distinct from new.*) execute function portal_notice_user_row();
create trigger users_delete_notice after delete on users
  for each row execute function portal_notice_user_row();

-- Rows that belong to one user and are part of what the auth cache holds (the Brightspace link
-- and the newest launch decide whoami's Brightspace flags) or what the user may do (seats).
create function portal_notice_user_of_row() returns trigger
language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform portal_change_notice('user', old.user_id::text);
  end if;
  if tg_op <> 'DELETE' then
    perform portal_change_notice('user', new.user_id::text);
  end if;
  return null;
end $$;
create trigger brightspace_user_links_change_notice after insert or update or delete
  on brightspace_user_links for each row execute function portal_notice_user_of_row();
create trigger lti_launches_change_notice after insert on lti_launches
  for each row execute function portal_notice_user_of_row();
create trigger license_block_users_change_notice after insert or delete
  on license_block_users for each row execute function portal_notice_user_of_row();

-- An organisation's name, activation or learning platform: every cached member.
create function portal_notice_organisation_row() returns trigger
language plpgsql as $$
begin
  perform portal_change_notice('organisation', old.id::text);
  return null;
end $$;
create trigger organisations_change_notice after update on organisations
  for each row when (old.name is distinct from new.name
                     or old.is_active is distinct from new.is_active
                     or old.learning_management_system_id
                        is distinct from new.learning_management_system_id)
  execute function portal_notice_organisation_row();

-- A role's permissions, or a platform moved to another organisation: rare, so everything.
create function portal_notice_everything() returns trigger
language plpgsql as $$
begin
  perform portal_change_notice('all', '');
  return null;
end $$;
-- Row triggers: the reference seed's upsert at every start changes no row and announces nothing.
create trigger role_permissions_change_notice after insert or update or delete
  on role_permissions for each row execute function portal_notice_everything();
create trigger lti_platforms_change_notice after update of organisation_id on lti_platforms
  for each row when (old.organisation_id is distinct from new.organisation_id)
  execute function portal_notice_everything();
create trigger lti_platforms_delete_notice after delete on lti_platforms
  for each row execute function portal_notice_everything();

-- A session's status (joined, completed, closed): the launch screen's polled status.
create function portal_notice_session_row() returns trigger
language plpgsql as $$
begin
  perform portal_change_notice('session', new.uuid::text);
  return null;
end $$;
create trigger simulation_sessions_change_notice after update of status on simulation_sessions
  for each row when (old.status is distinct from new.status)
  execute function portal_notice_session_row();

-- Shared rate-limit counters (src/plugins/app/rate-limit-store.ts): one row per key, its window
-- starting with the key's first request (as @fastify/rate-limit's own memory store counts), counted
-- with one upsert. Unlogged: a counter is worth nothing after a crash, and every counted request
-- would otherwise wait for a WAL flush. Keys whose window ended are swept regularly.
create unlogged table rate_limit_counters (
  key text primary key,
  -- The window's start and end in milliseconds since the epoch, by the database's clock (one
  -- clock for every API process).
  window_start bigint not null,
  window_end bigint not null,
  hits integer not null
);
create index rate_limit_counters_end_idx on rate_limit_counters (window_end);
