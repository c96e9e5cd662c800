-- Fewer recomputations per image (issue #24 point 5). An X-ray image was recomputed into
-- insight_images (0034) three times: on its insert, when its marks were inserted and when the
-- marking set its score; and the analysis rank (0012) was recounted on every evidence update. The
-- marking's two writes change one value each, so they now write that value: the score, the dose
-- the dose criterion assessed. Anything else an image's rows are made of still recomputes the
-- session's rows, and the rank is recounted only when an image's analysis or session changed.

-- The rank depends on each image's analysis status: not on a score.
create or replace function evidence_report_keys_update() returns trigger language plpgsql as $$
begin
  perform evidence_rank_sessions(array(
    select s.uuid
      from old_rows o join new_rows n on n.id = o.id,
           lateral (values (o.session_uuid), (n.session_uuid)) s(uuid)
     where (o.session_uuid, o.analysis_status_id) is distinct from
           (n.session_uuid, n.analysis_status_id)));
  return null;
end $$;

-- An image's score alone: its row's score. Its session, capture order, projection or data (the
-- X-ray type, the recorded DAP; a repeat depends on the others' too): the sessions' rows again.
create or replace function insight_images_evidence_updated() returns trigger language plpgsql as $$
begin
  update insight_images i set score = n.score
    from old_rows o join new_rows n on n.id = o.id
   where i.evidence_id = n.id
     and o.score is distinct from n.score
     and (o.session_uuid, o.position, o.practice_activity, o.evidence_data) is not distinct from
         (n.session_uuid, n.position, n.practice_activity, n.evidence_data);
  perform insight_images_refresh(array(
    select s.uuid
      from old_rows o join new_rows n on n.id = o.id,
           lateral (values (o.session_uuid), (n.session_uuid)) s(uuid)
     where (o.session_uuid, o.position, o.practice_activity, o.evidence_data) is distinct from
           (n.session_uuid, n.position, n.practice_activity, n.evidence_data)));
  return null;
end $$;

-- The dose criterion's assessed DAP of the given images, as the table holds it now (one dose
-- mark per image at most: the criterion is part of the key).
create function insight_images_dose_refresh(ids integer[]) returns void language plpgsql as $$
begin
  update insight_images i set dose_value = d.value
    from (select x.id,
                 (select m.value from evidence_marks m
                   where m.evidence_id = x.id and m.criterion = 'dose') as value
            from unnest(ids) x(id)) d
   where i.evidence_id = d.id and i.dose_value is distinct from d.value;
end $$;

create or replace function insight_images_marks_changed() returns trigger language plpgsql as $$
begin
  perform insight_images_dose_refresh(array(
    select distinct evidence_id from changed_rows where criterion = 'dose'));
  return null;
end $$;

-- An override changes a mark, not the assessed value; the refresh writes nothing then.
create or replace function insight_images_marks_updated() returns trigger language plpgsql as $$
begin
  perform insight_images_dose_refresh(array(
    select evidence_id from old_rows where criterion = 'dose'
    union
    select evidence_id from new_rows where criterion = 'dose'));
  return null;
end $$;
