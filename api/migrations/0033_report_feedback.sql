-- Educator feedback on a learner's report (issue #23 point 3; api/src/services/reports/
-- save-feedback.ts): a comment per image and per report, mark overrides with a reason, and the
-- learner's notification of new feedback.

-- One comment per image, the latest educator's. The author's name is kept so the learner still
-- sees who wrote it after the account is deleted.
create table evidence_feedback (
  evidence_id integer primary key references evidence (id) on delete cascade,
  comment text not null check (char_length(comment) between 1 and 4000),
  author_id uuid references users (id) on delete set null,
  author_name text not null,
  updated_at timestamptz not null default now()
);

-- The comment on the whole report.
create table report_feedback (
  session_uuid uuid primary key references simulation_sessions (uuid) on delete cascade,
  comment text not null check (char_length(comment) between 1 and 4000),
  author_id uuid references users (id) on delete set null,
  author_name text not null,
  updated_at timestamptz not null default now()
);

-- An override replaces a criterion's `mark` in place (so the image's score and the session's keep
-- one derivation); `original_mark` keeps what the API's marking gave (null: not assessed), and
-- `override_reason` marks the row as overridden.
alter table evidence_marks
  add column original_mark numeric(7, 2),
  add column override_reason text check (char_length(override_reason) between 1 and 500),
  add column overridden_by uuid references users (id) on delete set null,
  add column overridden_by_name text,
  add column overridden_at timestamptz,
  add constraint evidence_marks_override_complete
    check ((override_reason is null) = (overridden_at is null)
       and (override_reason is null) = (overridden_by_name is null));

-- What a user should hear about (GET /api/v1/notification/mine): for now new feedback on one of
-- their reports. One unread row per report; later feedback refreshes it.
create table user_notifications (
  id bigint generated always as identity primary key,
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('report_feedback')),
  session_uuid uuid not null references simulation_sessions (uuid) on delete cascade,
  created_at timestamptz not null default now(),
  read_at timestamptz
);
create unique index user_notifications_unread
  on user_notifications (user_id, kind, session_uuid) where read_at is null;
create index user_notifications_user on user_notifications (user_id, created_at desc);

-- Audit: an educator's feedback on a report (entity `report`), extended in place as 0032 does.
do $$
declare
  def text;
begin
  select pg_get_constraintdef(c.oid) into def
    from pg_constraint c
   where c.conrelid = 'audit_log'::regclass and c.conname = 'audit_log_action_check';
  if def is null then
    raise exception 'audit_log_action_check is missing';
  end if;
  if position('''give_feedback''' in def) = 0 then
    alter table audit_log drop constraint audit_log_action_check;
    execute 'alter table audit_log add constraint audit_log_action_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''give_feedback''::text, ''override_mark''::text, ');
  end if;
end
$$;
