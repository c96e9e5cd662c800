-- A learning-platform launch is announced when it changes what the auth cache holds, not only when
-- it is made (issue #24 point 1). whoami's Brightspace mismatch flag compares the user's link with
-- their newest launch's identifier (user-repository.ts, BRIGHTSPACE_FLAGS: the launch's user,
-- platform, platform_sub, brightspace_user_id and created_at), and on PostgreSQL the cache keeps a
-- user for 5 minutes trusting change notices (AUTH_USER_TTL_NOTICED_MS). 0030 announced inserts
-- only, so a launch deleted or corrected by hand, or a change a future write makes, left other
-- instances with the old flag for those minutes. Updates of the launch's other columns (the
-- grade service's and roster's endpoints, its course) read nothing the cache holds and stay silent.
drop trigger lti_launches_change_notice on lti_launches;
create trigger lti_launches_change_notice
  after insert or delete or update of user_id, platform_id, platform_sub, brightspace_user_id,
                                      created_at
  on lti_launches
  for each row execute function portal_notice_user_of_row();
