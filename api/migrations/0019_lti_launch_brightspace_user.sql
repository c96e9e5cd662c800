-- Brightspace's own user id of a launch (issue #10 point 6, for real D2L).
--
-- whoami's brightspaceUserMismatch compares the linked Brightspace user (Valence whoami's
-- `Identifier`) with the user of the latest launch. D2L's LTI 1.3 `sub` is its own opaque id, not
-- that Identifier; D2L sends the Identifier as `user_id` in its `http://www.brightspace.com` claim.
-- Kept here when the launch has it; without it (other platforms, the stand-in before it sent
-- the claim) the comparison falls back to the `sub`.
alter table lti_launches add column brightspace_user_id text;
