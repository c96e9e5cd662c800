-- A session's change notice carries its new status (issue #24 point 5), so the other API
-- processes move the launch screen's polled status to it instead of dropping it: with every
-- status change dropped, each session's next poll on every process read the database (about a
-- hundred reads a second at 1 000 learners). Payload {"k": "session", "id": uuid, "s": status};
-- a process that does not know "s" drops the status as before.

create or replace function portal_change_notice(kind text, id text) returns void
language plpgsql as $$
begin
  perform portal_change_notice_with(json_build_object('k', kind, 'id', id));
end $$;

-- Sends `payload`, counting the transaction's notices (the first 200 one by one, then one
-- {"k": "all"}), as portal_change_notice did before.
create function portal_change_notice_with(payload json) returns void
language plpgsql as $$
declare
  sent integer := coalesce(nullif(current_setting('portal.change_notices', true), ''), '0')::integer;
begin
  if current_setting('portal.announce_changes', true) = 'off' then
    return;
  end if;
  perform set_config('portal.change_notices', (sent + 1)::text, true);
  if sent < 200 then
    perform pg_notify('portal_changes', payload::text);
  elsif sent = 200 then
    perform pg_notify('portal_changes', '{"k":"all"}');
  end if;
end $$;

create or replace function portal_notice_session_row() returns trigger
language plpgsql as $$
begin
  perform portal_change_notice_with(
    json_build_object('k', 'session', 'id', new.uuid::text, 's', new.status::text));
  return null;
end $$;
