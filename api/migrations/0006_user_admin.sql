-- Administration, part 1 (issue #8): users that administrators create, and the outbox through
-- which their accounts reach the identity provider.

-- Keycloak picks the id of an account it creates, after our row exists; the token's `sub` is
-- that id. Demo and older accounts keep id = sub and leave this null.
alter table users add column identity_sub text;
create unique index users_identity_sub_key on users (identity_sub) where identity_sub is not null;

-- Where the user's account stands in the identity provider:
--   active        the account exists (demo accounts, and every account once provisioned)
--   provisioning  our row exists, the account is being created and the invitation sent
--   invited       the account exists and the set-password invitation went out
--   failed        an identity call keeps failing; the outbox row says why and keeps retrying
alter table users add column account_status text not null default 'active'
  check (account_status in ('active', 'provisioning', 'invited', 'failed'));

alter table users
  add constraint users_text_length_check check (
    char_length(email) <= 254 and char_length(first_name) <= 150 and char_length(last_name) <= 150);

-- The organisation's user list, by name.
create index users_organisation_name_idx on users (organisation_id, lower(last_name), id);

-- Work that must happen outside the database (calls to the identity provider) and must survive
-- a crash: written in the same transaction as the change that needs it, done by a worker with
-- retries. Rows with the same `key` are done in id order (create before update before delete).
create table outbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind ~ '^[a-z][a-z0-9_.-]*$'),
  -- Serialises the work on one object, e.g. `user:<id>`.
  key text not null check (char_length(key) between 1 and 200),
  payload jsonb not null,
  -- Steps already done (`{"sub": …, "invitation": "sent"}`), so a retry resumes after them.
  progress jsonb not null default '{}',
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  -- A worker's lease on the row; another worker takes it over once this has passed.
  locked_until timestamptz,
  done_at timestamptz,
  last_error text,
  created_at timestamptz not null default now()
);
create index outbox_due_idx on outbox (next_attempt_at, id) where done_at is null;
create index outbox_key_idx on outbox (key, id) where done_at is null;
