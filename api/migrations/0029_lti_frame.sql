-- Embedded launches (issue #22 point 2). A launch binds the browser that made it with an HttpOnly
-- cookie; the launch page inside the platform's frame gets a key of its own (in the URL fragment)
-- with which it may ask for a ticket when the frame cannot keep that cookie. Only SHA-256 digests
-- are stored: a database dump hands out neither.
create table lti_launch_browsers (
  launch_id uuid primary key references lti_launches (id) on delete cascade,
  cookie_hash text not null,
  frame_key_hash text not null,
  created_at timestamptz not null default now()
);

-- "Open in a new window": single use, two minutes at most, bound to one launch.
create table lti_launch_tickets (
  ticket_hash text primary key,
  launch_id uuid not null references lti_launches (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index lti_launch_tickets_expires_at_idx on lti_launch_tickets (expires_at);

-- The platform's frame that keeps this login's state (LTI Client Side postMessages'
-- `lti_storage_target`), when it offered one: the launch may then verify the state from there.
alter table lti_login_states add column storage_target text;
