-- An image's marking in fewer round trips (issue #24 point 5). The outbox worker's marking made
-- eleven (begin, the session's lock, the image, the scheme, the earlier attempts, the marks, the
-- image's score, the session's images, the session's score, the item done, commit), each waiting
-- for the event loop with the session's row locked and a pool connection held. The reads are now
-- one statement (the repository's `imageToMark`), and the writes of the image with the read of
-- the session's images after them one more: this function, whose statements are the ones the
-- repository made, in the same order, so the insight triggers (0034, 0038, 0040) run as before.
--
-- p_marked: false leaves the image without marks (its scheme is gone, or marking gave up), and
-- then p_score and the criteria are ignored. Answers every image of the session after the write,
-- in capture order: its projection, score and whether it still waits for marking.
create or replace function save_marking(
  p_session uuid,
  p_evidence integer,
  p_marked boolean,
  p_score numeric,
  p_criteria text[],
  p_marks numeric[],
  p_maxima numeric[],
  p_reasons text[],
  p_values float8[],
  p_limits float8[]
) returns table (projection text, image_score numeric, pending boolean)
language plpgsql as $$
#variable_conflict use_column
begin
  if p_marked then
    -- One statement for the criteria: the insight triggers run once per statement.
    if cardinality(p_criteria) > 0 then
      insert into evidence_marks (evidence_id, criterion, mark, max, reason, value, limit_value)
      select p_evidence, * from unnest(p_criteria, p_marks, p_maxima, p_reasons, p_values, p_limits);
    end if;
    update evidence set score = p_score, marking_pending = false where id = p_evidence;
  else
    update evidence set marking_pending = false where id = p_evidence;
  end if;
  return query
    select e.practice_activity, e.score, e.marking_pending from evidence e
     where e.session_uuid = p_session order by e.position;
end $$;
