-- A simulation session's creation in one statement (issue #24 point 5). Its transaction made five
-- round trips or more (begin, the user's lock, the open-session count, the insert, commit; closing
-- abandoned launches and counting again when the learner was at the limit), and between any two
-- of them its connection waited for a busy event loop with the user's row locked and a pool
-- connection held. The same checks, locks and writes in the same order, as one function: one
-- round trip, and the statement's own transaction makes it all or nothing as before.
--
-- The uuid comes from the caller (randomUUID, as before), so the repository answers it without
-- reading it back and a test can make the insert fail. The token's lifetime condition is the
-- repository's `live(...)` (session-repository.ts) with p_max_age and p_idle for its parameters:
-- the count must agree with useToken and closeExpired on which sessions still hold a working token.
--
-- Outcome: 'created' (new_uuid: p_uuid) or 'open_sessions' (the learner holds p_max_open sessions
-- with working tokens, even after closing their abandoned launches; new_uuid null). closed: the
-- abandoned launches closed to make room, in either case (their cached statuses are stale).
create or replace function create_session(
  p_uuid uuid,
  p_user uuid,
  p_product integer,
  p_category integer,
  p_configuration text,
  p_mode text,
  p_lti_launch text,
  p_token_hash text,
  p_configuration_id integer,
  p_max_open integer,
  p_max_age integer,
  p_idle integer,
  p_abandoned_seconds integer
) returns table (outcome text, new_uuid uuid, closed text[])
language plpgsql as $$
#variable_conflict use_column
declare
  v_open integer;
  v_closed text[] := '{}';
begin
  -- Concurrent launches of one learner queue here, so they cannot overshoot the limit together.
  perform 1 from users where id = p_user for no key update;
  select count(*)::integer into v_open from simulation_sessions
   where user_id = p_user and status in ('not_started', 'in_progress')
     and created_at > now() - p_max_age * interval '1 second'
     and last_used_at > now() - p_idle * interval '1 second';

  if v_open >= p_max_open then
    -- A launch the simulator never joined, long past the launch screen's wait, was given up: it
    -- holds no evidence, so closing it loses nothing (session-repository.ts, ABANDONED_LAUNCH_SECONDS).
    with abandoned as (
      update simulation_sessions set status = 'closed', closed_at = now()
       where user_id = p_user and status = 'not_started'
         and created_at < now() - make_interval(secs => p_abandoned_seconds)
      returning uuid)
    select coalesce(array_agg(uuid::text), '{}') into v_closed from abandoned;
    -- Some of them may have expired already and not counted: count again.
    if cardinality(v_closed) > 0 then
      select count(*)::integer into v_open from simulation_sessions
       where user_id = p_user and status in ('not_started', 'in_progress')
         and created_at > now() - p_max_age * interval '1 second'
         and last_used_at > now() - p_idle * interval '1 second';
    end if;
  end if;

  if v_open >= p_max_open then
    return query select 'open_sessions'::text, null::uuid, v_closed;
    return;
  end if;

  insert into simulation_sessions
    (uuid, user_id, product_id, category_id, configuration, mode, lti_launch_id, token_hash,
     configuration_id)
  values (p_uuid, p_user, p_product, p_category, p_configuration, p_mode, p_lti_launch,
          p_token_hash, p_configuration_id);
  return query select 'created'::text, p_uuid, v_closed;
end $$;
