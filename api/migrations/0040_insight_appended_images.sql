-- A simulator's image comes after every other image of its session: it changes no earlier image's
-- row (a repeat looks only at earlier images), so its insert now writes its own row instead of
-- recomputing the session's rows (0034) — the upload's largest cost in PostgreSQL under the
-- restart bench's 50 images a second (api/README, "Rolling restart"). An image inserted before
-- another of its session (a bulk load, a copy) still recomputes that session.
create function insight_images_evidence_inserted() returns trigger language plpgsql as $$
declare
  -- Sessions where a new image sits before an image that was there already.
  reordered uuid[] := array(
    select distinct n.session_uuid
      from changed_rows n
     where exists (select 1 from evidence e
                    where e.session_uuid = n.session_uuid and e.position > n.position
                      and not exists (select 1 from changed_rows c where c.id = e.id)));
begin
  insert into insight_images
    (evidence_id, session_uuid, session_id, organisation_id, reported, recorded, user_id,
     product_id, configuration_key, pass_mark, position, projection, score, is_repeat, dose_value,
     dap_mgy_cm2)
  select n.id, s.uuid, s.id, s.organisation_id, s.status in ('complete', 'closed'),
         coalesce(s.completed_at, s.closed_at, s.created_at), s.user_id, s.product_id,
         lower(s.configuration), s.pass_mark, n.position, n.practice_activity, n.score,
         exists (select 1 from evidence p
                  where p.session_uuid = n.session_uuid and p.practice_activity = n.practice_activity
                    and p.position < n.position
                    and p.evidence_data #>> '{meta,type}' = 'xray_image'),
         (select m.value from evidence_marks m where m.evidence_id = n.id and m.criterion = 'dose'),
         case when jsonb_typeof(n.evidence_data #> '{dose,dapMGyCm2}') = 'number'
              then (n.evidence_data #>> '{dose,dapMGyCm2}')::float8 end
    from changed_rows n
    join simulation_sessions s on s.uuid = n.session_uuid
   where n.evidence_data #>> '{meta,type}' = 'xray_image'
     and n.session_uuid <> all(reordered);
  perform insight_images_refresh(reordered);
  return null;
end $$;

drop trigger insight_images_evidence_insert on evidence;
create trigger insight_images_evidence_insert after insert on evidence
  referencing new table as changed_rows
  for each statement execute function insight_images_evidence_inserted();
-- As 0034: bulk loads run with session_replication_role = replica, and the rows must follow.
alter table evidence enable always trigger insight_images_evidence_insert;
