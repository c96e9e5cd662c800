-- Issue #22 point 1: a launch is a sign-in. The API is an OpenID provider for launched users
-- (api/src/lti/broker/) that the identity provider brokers, as Keycloak brokers any external one.

-- Its own RS256 signing key(s), kept here so every API process signs with the same key and a
-- restart keeps it (like lti_tool_keys, without their rotation schedule).
create table lti_broker_keys (
  kid text primary key check (char_length(kid) between 1 and 100),
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now()
);

-- The launch response binds this browser to the launch it just made: an HttpOnly cookie holds a
-- random token, the table only its SHA-256. Single use (the authorization request spends it) and
-- short-lived (expires_at).
create table lti_broker_bindings (
  token_hash text primary key check (char_length(token_hash) = 64),
  launch_id uuid not null references lti_launches (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index lti_broker_bindings_expires_idx on lti_broker_bindings (expires_at);

-- Authorization codes of the broker (single use, short-lived; PKCE when the client sent a
-- challenge). In the database, not in memory, so the token request may reach another API process.
create table lti_broker_codes (
  code_hash text primary key check (char_length(code_hash) = 64),
  user_id uuid not null references users (id) on delete cascade,
  launch_id uuid not null references lti_launches (id) on delete cascade,
  client_id text not null,
  redirect_uri text not null,
  nonce text,
  code_challenge text,
  scope text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index lti_broker_codes_expires_idx on lti_broker_codes (expires_at);

-- Users whose identity account is linked to the broker (Keycloak federated identity of alias
-- `alias`, the broker's subject = users.id), so a launch asks for the link only while it is missing.
create table lti_broker_account_links (
  user_id uuid primary key references users (id) on delete cascade,
  alias text not null check (char_length(alias) between 1 and 64),
  linked_at timestamptz not null default now()
);
