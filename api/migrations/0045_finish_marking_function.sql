-- An image's marking in two round trips instead of six (issue #24 point 5). Under the learner
-- load every statement holds its pool connection for about one turn of the API's busy event loop
-- (its answer waits in the socket until the next turn), so the pool's 20 connections carried
-- about 400 statements a second and stayed full; markings were a quarter of them (begin, the
-- session's lock with the image, save_marking, the session's score, the item done, commit).
--
-- The outbox worker now reads what the marking needs without a lock (the repository's
-- `markingSnapshot`: the image, the scheme, the earlier attempts and the session's images), marks
-- the image and computes the session's score in TypeScript as before, and hands all of it to this
-- function. It locks the session's row, as the transaction did, and checks that the session's
-- images are still the ones the score was computed from (ids, waiting flags and scores, in
-- capture order); then it writes what the transaction wrote, in the same order (save_marking, the
-- score, the item done), as one statement's transaction. Anything else answers 'fallback' and
-- writes nothing, and the worker marks the image the old way, in a transaction:
--   - the session is gone, or its images changed since the read (an upload, a deletion, an
--     educator's override, another marking of the same image);
--   - this image is the last one waiting of a session whose completion left its grade to the last
--     marking (grade_awaits_marking): queueing that grade needs the transaction's statements.
--
-- p_marked, p_score and the criteria are save_marking's. p_session_score: the session's score
-- after the write as TypeScript computed it (null while any image waits); p_pass_mark null keeps
-- the session's. p_item, p_note: the outbox item completed with the marking, and its note.
create or replace function finish_marking(
  p_session uuid,
  p_evidence integer,
  p_marked boolean,
  p_score numeric,
  p_criteria text[],
  p_marks numeric[],
  p_maxima numeric[],
  p_reasons text[],
  p_values float8[],
  p_limits float8[],
  p_seen_ids integer[],
  p_seen_pending boolean[],
  p_seen_scores numeric[],
  p_session_score smallint,
  p_pass_mark smallint,
  p_item bigint,
  p_note text
) returns text
language plpgsql as $$
declare
  v_awaits boolean;
  v_ids integer[];
  v_pending boolean[];
  v_scores numeric[];
begin
  select s.grade_awaits_marking into v_awaits
    from simulation_sessions s where s.uuid = p_session for update;
  if not found then
    return 'fallback';
  end if;
  select coalesce(array_agg(e.id order by e.position), '{}'),
         coalesce(array_agg(e.marking_pending order by e.position), '{}'),
         coalesce(array_agg(e.score order by e.position), '{}')
    into v_ids, v_pending, v_scores
    from evidence e where e.session_uuid = p_session;
  if v_ids is distinct from p_seen_ids or v_pending is distinct from p_seen_pending
     or v_scores is distinct from p_seen_scores
     or not (p_evidence = any(v_ids))
     or not exists (select 1 from evidence e where e.id = p_evidence and e.marking_pending) then
    return 'fallback';
  end if;
  if v_awaits and not exists (
    select 1 from evidence e
     where e.session_uuid = p_session and e.marking_pending and e.id <> p_evidence
  ) then
    return 'fallback';
  end if;
  perform save_marking(p_session, p_evidence, p_marked, p_score, p_criteria, p_marks, p_maxima,
                       p_reasons, p_values, p_limits);
  update simulation_sessions set score = p_session_score, pass_mark = coalesce(p_pass_mark, pass_mark)
   where uuid = p_session;
  update outbox set done_at = now(), locked_until = null, progress = '{}'::jsonb, last_error = p_note
   where id = p_item;
  return 'marked';
end $$;
