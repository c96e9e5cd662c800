-- E-mail changes need the new address's consent (issue #20 point 3). An administrator's change of
-- a user's e-mail is kept here until the new address confirms it; users.email (and the identity
-- account) keep the old address until then.
--   one row per user: a second change replaces the first (its link stops working)
--   token_hash   SHA-256 of the single-use token the confirmation link carries; the token itself
--                is never stored, so a read of this table cannot confirm anyone's change
--   expires_at   past it the link answers "expired" and the row is no longer shown as pending
--   confirmed_at set when the link was used; the row stays so that a second use is told "already
--                used" rather than "invalid"
create table email_changes (
  user_id uuid primary key references users (id) on delete cascade,
  new_email text not null check (position('@' in new_email) > 1),
  token_hash bytea not null unique,
  expires_at timestamptz not null,
  requested_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz
);

-- The audit log's account events gain the two ends of such a change.
--   request_email_change  an administrator asked for a new e-mail (before: old, after: pending)
--   confirm_email_change  the new address confirmed it (actor: the user)
--   cancel_email_change   an administrator withdrew a pending change
-- (Added to whatever the constraint lists now, as 0014 does, so later migrations' actions stay.)
do $$
declare
  def text;
begin
  select pg_get_constraintdef(c.oid) into def
    from pg_constraint c
   where c.conrelid = 'audit_log'::regclass and c.conname = 'audit_log_action_check';
  if def is null then
    raise exception 'audit_log_action_check is missing';
  end if;
  if position('''request_email_change''' in def) = 0 then
    alter table audit_log drop constraint audit_log_action_check;
    execute 'alter table audit_log add constraint audit_log_action_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''request_email_change''::text, '
         || '''confirm_email_change''::text, ''cancel_email_change''::text, ');
  end if;
end
$$;
