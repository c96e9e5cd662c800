-- Issue #22 point 3: a learning platform's user is identified by issuer + sub alone, so a launch
-- without an e-mail (as the 1EdTech certification suite sends them) still makes a portal user.
-- users_email_key (unique on lower(email), 0001) keeps addresses unique where present: NULLs are
-- distinct in a unique index, and the '@' check passes a NULL.
alter table users alter column email drop not null;

-- Linking a launch to an existing portal account by its e-mail trusts the platform to have
-- verified that address; only an administrator can say a platform does (off by default, and off
-- for dynamic registrations).
alter table lti_platforms add column verifies_email boolean not null default false;
