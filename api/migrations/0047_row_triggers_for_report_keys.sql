-- Report counters, insight images and the analysis sort key follow only the columns they read
-- (issue #24 point 5). Their update triggers were statement-level with transition tables, and a
-- statement-level trigger fires for every UPDATE statement whatever it sets, even one that
-- changes no row; PostgreSQL refuses a column list on a trigger with transition tables. So every
-- session token's use (its last_used_at touch, a CTE that mostly updates nothing), every
-- sort_analysis or score update, and every marking's evidence update built both transition
-- tables, ran a PL/pgSQL function and its queries, and often cascaded into one more empty update
-- with the same triggers: nine session updates a learner's session, each firing two of them, were
-- a third of PostgreSQL's time under the load benchmark, nearly all for nothing.
--
-- Now they are row-level triggers with the columns their functions compare and a WHEN clause
-- with the same comparison: PostgreSQL decides in C that an update is not theirs, without
-- building anything or calling a function. A row that does change runs the same work as before,
-- for that row. A bulk update (a pass mark for all, a learner moved to another organisation) now
-- refreshes its rows one by one; those are rare writes of administrators and migrations.
--
-- Still enabled always, as 0003, 0012 and 0034 made them: bulk loads run with
-- session_replication_role = replica, and the derived rows must follow every write all the same.

-- Report counters (0003): a report counts while its status is complete or closed.
create or replace function report_counts_row_update() returns trigger
language plpgsql as $$
begin
  if old.status in ('complete', 'closed') then
    update report_counts set reports = reports - 1 where user_id = old.user_id;
  end if;
  if new.status in ('complete', 'closed') then
    insert into report_counts (user_id, reports) values (new.user_id, 1)
    on conflict (user_id) do update set reports = report_counts.reports + 1;
  end if;
  return null;
end $$;

drop trigger report_counts_update on simulation_sessions;
create trigger report_counts_update
  after update of status, user_id on simulation_sessions
  for each row
  when ((old.status, old.user_id) is distinct from (new.status, new.user_id))
  execute function report_counts_row_update();
alter table simulation_sessions enable always trigger report_counts_update;
drop function report_counts_update();

-- The analysis sort key (0012): the session's rank follows its images' analysis statuses.
create or replace function evidence_report_keys_row_update() returns trigger
language plpgsql as $$
begin
  perform evidence_rank_sessions(array(
    select distinct u from unnest(array[old.session_uuid, new.session_uuid]) u));
  return null;
end $$;

drop trigger evidence_report_keys_update on evidence;
create trigger evidence_report_keys_update
  after update of session_uuid, analysis_status_id on evidence
  for each row
  when ((old.session_uuid, old.analysis_status_id) is distinct from
        (new.session_uuid, new.analysis_status_id))
  execute function evidence_report_keys_row_update();
alter table evidence enable always trigger evidence_report_keys_update;
drop function evidence_report_keys_update();

-- Insight images (0034): a session's images carry its owner, product, configuration, dates,
-- status and pass mark.
create or replace function insight_images_sessions_row_updated() returns trigger
language plpgsql as $$
begin
  perform insight_images_refresh(array[new.uuid]);
  return null;
end $$;

drop trigger insight_images_sessions_update on simulation_sessions;
create trigger insight_images_sessions_update
  after update of uuid, status, completed_at, closed_at, created_at, organisation_id, user_id,
                  product_id, configuration, pass_mark
  on simulation_sessions
  for each row
  when ((old.uuid, old.status, old.completed_at, old.closed_at, old.created_at,
         old.organisation_id, old.user_id, old.product_id, old.configuration, old.pass_mark)
        is distinct from
        (new.uuid, new.status, new.completed_at, new.closed_at, new.created_at,
         new.organisation_id, new.user_id, new.product_id, new.configuration, new.pass_mark))
  execute function insight_images_sessions_row_updated();
alter table simulation_sessions enable always trigger insight_images_sessions_update;
drop function insight_images_sessions_updated();

-- The two functions that do these triggers' work planned their statements afresh on every call:
-- PL/pgSQL keeps a custom plan for `= any($1)` when the generic one is costed higher, and these
-- statements join a view of five tables (the insight images' insert planned 1.3 ms for 0.3 ms of
-- work). Their generic plans read the same indexes (evidence by session, insight images by
-- session, sessions by uuid), so they are planned once per connection.
alter function insight_images_refresh(uuid[]) set plan_cache_mode = force_generic_plan;
alter function evidence_rank_sessions(uuid[]) set plan_cache_mode = force_generic_plan;
