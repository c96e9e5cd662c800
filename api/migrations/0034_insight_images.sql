-- Cohort insight at scale (issue #23 point 6; api/src/repositories/insight-repository.ts, api/
-- README.md "Cohort insight"). Insight and its export read every X-ray image of an organisation's
-- reports in a date range; joined from simulation_sessions to evidence and evidence_marks that is
-- one index probe per report (a year of a 2 500-learner organisation: 26 000 probes, 1.7 s).
-- insight_images holds one narrow row per X-ray image with what insight groups, filters and counts
-- by, copied from its session, so a range is one index range of this table.
--
-- One row per image rather than per learner × projection × day: medians and 75th percentiles of
-- dose ÷ DRL need the values themselves, and with one image per projection per report (the usual
-- case) a per-report × projection row would be as many rows again.
--
-- Kept by statement-level triggers in the transaction of every write that changes an input
-- (marking, completion, an educator's override, a learner moving organisation, deletion), so no
-- code path can forget it. Derived, not copied: the dose ratio's DRL is read from the current
-- scheme at query time, as before.
create table insight_images (
  evidence_id integer primary key references evidence (id) on delete cascade,
  session_uuid uuid not null references simulation_sessions (uuid) on delete cascade,
  session_id integer not null,
  -- The session's: its owner's organisation, whether it is a report (complete or closed), when it
  -- counts (as the report lists date it), owner, product, configuration and pass mark.
  organisation_id integer,
  reported boolean not null,
  recorded timestamptz not null,
  user_id uuid not null,
  product_id integer not null,
  -- lower(configuration): the filter and the scheme's DRL match configurations case-insensitively.
  configuration_key text not null,
  pass_mark smallint,
  -- The image's: capture order, projection, score, whether an earlier image of the session has
  -- the same projection, the DAP the dose criterion assessed, and the DAP the simulator recorded.
  position integer not null,
  projection text not null,
  score numeric(5, 2),
  is_repeat boolean not null,
  dose_value double precision,
  dap_mgy_cm2 double precision
);

-- Insight's range and the export's keyset order (recorded, session, capture order).
create index insight_images_org_recorded_idx
  on insight_images (organisation_id, recorded, session_id, position) where reported;
create index insight_images_session_idx on insight_images (session_uuid);

-- Sessions and learners per week and per learner read the reports themselves (a report without
-- images counts too). 0018's index of the organisation's reports by recorded time also carries
-- what those queries read and filter by (owner, score, product, configuration), so a year of an
-- organisation is an index-only range instead of 26 000 table rows. Same keys and predicate: the
-- report lists use it as before.
drop index simulation_sessions_report_org_recorded_idx;
create index simulation_sessions_report_org_recorded_idx
  on simulation_sessions (organisation_id, (coalesce(completed_at, closed_at, created_at)), id)
  include (completed_at, closed_at, created_at, user_id, score, product_id, configuration)
  where status in ('complete', 'closed');

-- What a row holds, computed from the session, its evidence and the dose mark. The repeat flag's
-- window is partitioned by session, so a filter on session_uuid reaches the evidence index.
create view insight_image_source as
select e.id as evidence_id, e.session_uuid, s.id as session_id, s.organisation_id,
       s.status in ('complete', 'closed') as reported,
       coalesce(s.completed_at, s.closed_at, s.created_at) as recorded, s.user_id, s.product_id,
       lower(s.configuration) as configuration_key, s.pass_mark, e.position,
       e.practice_activity as projection, e.score,
       row_number() over (partition by e.session_uuid, e.practice_activity order by e.position) > 1
         as is_repeat,
       dose.value as dose_value,
       case when jsonb_typeof(e.evidence_data #> '{dose,dapMGyCm2}') = 'number'
            then (e.evidence_data #>> '{dose,dapMGyCm2}')::float8 end as dap_mgy_cm2
  from simulation_sessions s
  join evidence e on e.session_uuid = s.uuid
  left join evidence_marks dose on dose.evidence_id = e.id and dose.criterion = 'dose'
 where e.evidence_data #>> '{meta,type}' = 'xray_image';

-- Rewrites the rows of the given sessions from their evidence: inserts new images, updates only
-- rows whose values changed (so a session update that touches none of them writes nothing) and
-- removes rows of images that are gone or no longer X-ray images.
create function insight_images_refresh(uuids uuid[]) returns void language plpgsql as $$
begin
  if cardinality(uuids) = 0 then
    return;
  end if;
  delete from insight_images i
   where i.session_uuid = any(uuids)
     and not exists (
       select 1 from evidence e
        where e.id = i.evidence_id and e.session_uuid = i.session_uuid
          and e.evidence_data #>> '{meta,type}' = 'xray_image');
  insert into insight_images as i
    (evidence_id, session_uuid, session_id, organisation_id, reported, recorded, user_id,
     product_id, configuration_key, pass_mark, position, projection, score, is_repeat, dose_value,
     dap_mgy_cm2)
  select * from insight_image_source where session_uuid = any(uuids)
  on conflict (evidence_id) do update
     set session_uuid = excluded.session_uuid, session_id = excluded.session_id,
         organisation_id = excluded.organisation_id, reported = excluded.reported,
         recorded = excluded.recorded, user_id = excluded.user_id,
         product_id = excluded.product_id, configuration_key = excluded.configuration_key,
         pass_mark = excluded.pass_mark, position = excluded.position,
         projection = excluded.projection, score = excluded.score,
         is_repeat = excluded.is_repeat, dose_value = excluded.dose_value,
         dap_mgy_cm2 = excluded.dap_mgy_cm2
   where (i.session_uuid, i.session_id, i.organisation_id, i.reported, i.recorded, i.user_id,
          i.product_id, i.configuration_key, i.pass_mark, i.position, i.projection, i.score,
          i.is_repeat, i.dose_value, i.dap_mgy_cm2)
         is distinct from
         (excluded.session_uuid, excluded.session_id, excluded.organisation_id, excluded.reported,
          excluded.recorded, excluded.user_id, excluded.product_id, excluded.configuration_key,
          excluded.pass_mark, excluded.position, excluded.projection, excluded.score,
          excluded.is_repeat, excluded.dose_value, excluded.dap_mgy_cm2);
end $$;

-- Evidence: a submitted image, its score (marking, an override's re-derivation), a deleted one.
create function insight_images_evidence_changed() returns trigger language plpgsql as $$
begin
  perform insight_images_refresh(array(select distinct session_uuid from changed_rows));
  return null;
end $$;

create function insight_images_evidence_updated() returns trigger language plpgsql as $$
begin
  perform insight_images_refresh(array(
    select session_uuid from old_rows union select session_uuid from new_rows));
  return null;
end $$;

create trigger insight_images_evidence_insert after insert on evidence
  referencing new table as changed_rows
  for each statement execute function insight_images_evidence_changed();
create trigger insight_images_evidence_update after update on evidence
  referencing old table as old_rows new table as new_rows
  for each statement execute function insight_images_evidence_updated();
create trigger insight_images_evidence_delete after delete on evidence
  referencing old table as changed_rows
  for each statement execute function insight_images_evidence_changed();

-- The dose criterion's assessed DAP (written by marking; an override changes `mark`, not `value`,
-- but a re-marking may change both).
create function insight_images_marks_changed() returns trigger language plpgsql as $$
begin
  perform insight_images_refresh(array(
    select distinct e.session_uuid from changed_rows m join evidence e on e.id = m.evidence_id
     where m.criterion = 'dose'));
  return null;
end $$;

create function insight_images_marks_updated() returns trigger language plpgsql as $$
begin
  perform insight_images_refresh(array(
    select e.session_uuid
      from old_rows o join new_rows n on n.evidence_id = o.evidence_id
      join evidence e on e.id = n.evidence_id
     where (o.criterion = 'dose' or n.criterion = 'dose')
       and (o.criterion, o.value) is distinct from (n.criterion, n.value)));
  return null;
end $$;

create trigger insight_images_marks_insert after insert on evidence_marks
  referencing new table as changed_rows
  for each statement execute function insight_images_marks_changed();
create trigger insight_images_marks_update after update on evidence_marks
  referencing old table as old_rows new table as new_rows
  for each statement execute function insight_images_marks_updated();
create trigger insight_images_marks_delete after delete on evidence_marks
  referencing old table as changed_rows
  for each statement execute function insight_images_marks_changed();

-- The session's part: completion (status, completed_at), closing, its pass mark, its owner's
-- organisation (0012's users_report_keys moves it), product or configuration. Transition tables
-- allow no column list, so the sessions whose inputs did not change are skipped here.
create function insight_images_sessions_updated() returns trigger language plpgsql as $$
begin
  perform insight_images_refresh(array(
    select n.uuid from old_rows o join new_rows n on n.id = o.id
     where (o.uuid, o.status, o.completed_at, o.closed_at, o.created_at, o.organisation_id,
            o.user_id, o.product_id, o.configuration, o.pass_mark)
           is distinct from
           (n.uuid, n.status, n.completed_at, n.closed_at, n.created_at, n.organisation_id,
            n.user_id, n.product_id, n.configuration, n.pass_mark)));
  return null;
end $$;

create trigger insight_images_sessions_update after update on simulation_sessions
  referencing old table as old_rows new table as new_rows
  for each statement execute function insight_images_sessions_updated();

-- Like 0012's keys: bulk loads run with session_replication_role = replica, and the rows must
-- follow every write all the same.
alter table evidence enable always trigger insight_images_evidence_insert;
alter table evidence enable always trigger insight_images_evidence_update;
alter table evidence enable always trigger insight_images_evidence_delete;
alter table evidence_marks enable always trigger insight_images_marks_insert;
alter table evidence_marks enable always trigger insight_images_marks_update;
alter table evidence_marks enable always trigger insight_images_marks_delete;
alter table simulation_sessions enable always trigger insight_images_sessions_update;

-- Backfill: every session's X-ray images, in the index's order so a range reads adjacent pages.
insert into insight_images
select * from insight_image_source order by organisation_id, recorded, session_id, position;
analyze insight_images;
