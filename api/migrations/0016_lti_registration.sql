-- LTI Dynamic Registration 1.0 (issue #10 point 1). A global administrator makes a one-time
-- registration URL for an organisation; the platform's administrator pastes it into the platform,
-- which opens it with its openid_configuration. The URL's token is what authorises the
-- registration, so only its SHA-256 is kept: a database reader cannot register with it.
create table lti_registration_tokens (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  organisation_id integer not null references organisations (id) on delete cascade,
  -- Null once the administrator's account is gone; the token then still names the organisation.
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  -- The registration it led to, for the audit trail of who authorised which platform.
  platform_id integer references lti_platforms (id) on delete set null,
  check (expires_at > created_at)
);
create index lti_registration_tokens_expires_idx on lti_registration_tokens (expires_at);
create index lti_registration_tokens_organisation_idx on lti_registration_tokens (organisation_id);
