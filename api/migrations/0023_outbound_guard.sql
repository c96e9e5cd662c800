-- Guarded outbound calls to learning platforms (issue #20 point 4).

-- A registration URL is good for 3 tries: each try is counted before the portal calls the
-- platform (so parallel tries cannot slip past), a successful one uses the token up. Its holder
-- could otherwise point the portal at one address after another for the token's 24 hours.
alter table lti_registration_tokens
  add column attempts integer not null default 0 check (attempts between 0 and 3);

-- Grade errors used to keep the first 300 characters of the platform's answer after the status
-- (`post score: HTTP 400 {…}`), in the outbox and in the audit log, where administrators read
-- them. Only the step and the status stay; the body is gone from old rows too.
update outbox
   set last_error = regexp_replace(last_error, '(HTTP [0-9]{3}) .*$', '\1')
 where kind = 'lti.score' and last_error ~ 'HTTP [0-9]{3} ';
update audit_log
   set after = jsonb_set(
         after, '{error}', to_jsonb(regexp_replace(after ->> 'error', '(HTTP [0-9]{3}) .*$', '\1')))
 where entity_type = 'lti_score' and after ->> 'error' ~ 'HTTP [0-9]{3} ';
