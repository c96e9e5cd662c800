-- Brightspace (D2L) OAuth 2.0 (issue #10 point 6): which Brightspace user a portal user signed
-- in as, and the single-use states of the authorization-code flow. whoami's two flags used to be
-- fixed columns that nothing ever set; they are now derived (user-repository findAuthUser).

-- A portal user's Brightspace account, as Valence `users/whoami` named it after the code flow.
-- One per portal user: a new round trip replaces it; the reset deletes it.
create table brightspace_user_links (
  user_id uuid primary key references users (id) on delete cascade,
  -- Valence `Identifier`: the same value the platform sends as the LTI `sub` of that user.
  identifier text not null check (char_length(identifier) between 1 and 255),
  unique_name text not null default '' check (char_length(unique_name) <= 255),
  first_name text not null default '' check (char_length(first_name) <= 255),
  last_name text not null default '' check (char_length(last_name) <= 255),
  linked_at timestamptz not null default now()
);

-- Started by the signed-in user (POST /api/v1/user/brightspace-auth), consumed once by the
-- callback; valid 10 minutes (checked when started and consumed). `browser_hash` is the SHA-256
-- of the secret in the starting browser's cookie, so a state only completes in that browser.
create table brightspace_oauth_states (
  state text primary key check (char_length(state) between 16 and 100),
  user_id uuid not null references users (id) on delete cascade,
  redirect_path text not null check (char_length(redirect_path) between 1 and 2000),
  browser_hash text not null check (char_length(browser_hash) = 64),
  created_at timestamptz not null default now(),
  used_at timestamptz
);
create index brightspace_oauth_states_created_idx on brightspace_oauth_states (created_at);

alter table users drop column is_brightspace_auth_required;
alter table users drop column brightspace_user_mismatch;

-- Linking and resetting land in the audit log. Extended in place, as 0013 does.
do $$
declare
  def text;
begin
  select pg_get_constraintdef(c.oid) into def
    from pg_constraint c
   where c.conrelid = 'audit_log'::regclass and c.conname = 'audit_log_entity_type_check';
  if def is null then
    raise exception 'audit_log_entity_type_check is missing';
  end if;
  if position('''brightspace_link''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''brightspace_link''::text, ');
  end if;
end
$$;
