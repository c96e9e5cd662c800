-- Marking per image computed by the API, and grade release (issue #23 points 1 and 2;
-- api/src/marking/, api/src/services/sessions/submit-evidence.ts, api/src/lti/grade-passback.ts).

-- A configuration's marking scheme (contract MarkingScheme, checked with ajv on save); null: its
-- images are not marked, so its sessions have no score and send no grade.
alter table product_configurations add column marking_scheme jsonb;

-- One row per criterion of a marked image, written in the transaction that stores the evidence.
-- `mark` null: the evidence lacks the value (not assessed). `value`/`limit_value`: the measured
-- value and the limit it was held against, so the report can say why a point was lost.
create table evidence_marks (
  evidence_id integer not null references evidence (id) on delete cascade,
  criterion text not null
    check (criterion in ('centring', 'collimation', 'kV', 'mAs', 'dose', 'exposureIndex', 'repeats')),
  mark numeric(7, 2) check (mark >= 0),
  max numeric(7, 2) not null check (max >= 0),
  reason text not null check (char_length(reason) between 1 and 64),
  value double precision,
  limit_value double precision,
  primary key (evidence_id, criterion),
  check (mark is null or mark <= max)
);

-- The image's percentage of its assessed marks (null: not marked, or nothing assessed).
alter table evidence add column score numeric(5, 2) check (score between 0 and 100);

-- `score`: computed from the images (best image per projection, averaged; api/README.md
-- "Marking"), kept current by every evidence insert; null: no marked image. `reported_score`:
-- what the simulator sent on completion, shown and never posted. `pass_mark`: the scheme's, as
-- the session was marked with it.
alter table simulation_sessions
  add column score smallint check (score between 0 and 100),
  add column reported_score smallint check (reported_score between 0 and 100),
  add column pass_mark smallint check (pass_mark between 0 and 100),
  -- Grade release: since when the platform holds a pending result (the grade awaits an
  -- educator), and when the grade went to it, automatically or by `grade_released_by`.
  add column grade_pending_since timestamptz,
  add column grade_released_at timestamptz,
  add column grade_released_by uuid references users (id) on delete set null;
update simulation_sessions
   set reported_score = (report_details->>'score')::numeric::smallint
 where jsonb_typeof(report_details->'score') = 'number'
   and (report_details->>'score')::numeric between 0 and 100;

-- When grades go to the learning platform: per organisation, and per course as an override
-- (null: the organisation's).
alter table organisations
  add column grade_release text not null default 'automatic'
    check (grade_release in ('automatic', 'after_review'));
alter table lti_courses
  add column grade_release text check (grade_release in ('automatic', 'after_review'));

-- Audit: an educator's release of a grade (entity `report`, the session's uuid), extended in
-- place as 0014 does.
do $$
declare
  def text;
begin
  select pg_get_constraintdef(c.oid) into def
    from pg_constraint c
   where c.conrelid = 'audit_log'::regclass and c.conname = 'audit_log_entity_type_check';
  if def is null then
    raise exception 'audit_log_entity_type_check is missing';
  end if;
  if position('''report''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''report''::text, ');
  end if;

  select pg_get_constraintdef(c.oid) into def
    from pg_constraint c
   where c.conrelid = 'audit_log'::regclass and c.conname = 'audit_log_action_check';
  if def is null then
    raise exception 'audit_log_action_check is missing';
  end if;
  if position('''release_grade''' in def) = 0 then
    alter table audit_log drop constraint audit_log_action_check;
    execute 'alter table audit_log add constraint audit_log_action_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''release_grade''::text, ');
  end if;
end
$$;
