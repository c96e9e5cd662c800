-- Report lists (GET /report, /report/learner) read sessions that ended, newest first, one page at
-- a time. A page must cost index work only, however many reports there are (target: p99 ≤ 25 ms
-- with 100 000 reports on PGlite). The partial indexes' predicate must match the repository's
-- `status in ('complete', 'closed')` for the planner to use them.

-- The default ordering `-id`. The list helper orders `desc nulls last`, which a backward scan of
-- an ascending index does not give, hence one index per direction.
create index simulation_sessions_report_id_desc_idx on simulation_sessions (id desc nulls last)
  where status in ('complete', 'closed');
create index simulation_sessions_report_id_idx on simulation_sessions (id)
  where status in ('complete', 'closed');
-- Ordering by `recorded` (newest first).
create index simulation_sessions_report_recorded_idx
  on simulation_sessions ((coalesce(completed_at, closed_at, created_at)) desc nulls last)
  where status in ('complete', 'closed');
-- Own reports, and an organisation's reports as the union of its users' reports; also the
-- filter's semi-joins on matching users, products and categories.
create index simulation_sessions_report_user_idx on simulation_sessions (user_id, id)
  where status in ('complete', 'closed');
create index simulation_sessions_report_product_idx on simulation_sessions (product_id, id)
  where status in ('complete', 'closed');
create index simulation_sessions_report_category_idx on simulation_sessions (category_id, id)
  where status in ('complete', 'closed');

-- Reports per user, kept by triggers, because counting 100 000 index entries for every page of
-- an unfiltered list costs more than the whole page budget on PGlite. Filtered lists still count
-- their rows.
create table report_counts (
  user_id uuid primary key references users (id) on delete cascade,
  -- No check (reports >= 0): a counter that ever drifted must not make session writes fail.
  reports integer not null default 0
);
insert into report_counts (user_id, reports)
  select user_id, count(*) from simulation_sessions
   where status in ('complete', 'closed') group by user_id;

-- Statement-level with transition tables, so a bulk insert adds one row per user, not one
-- trigger call per session.
create function report_counts_add() returns trigger language plpgsql as $$
begin
  insert into report_counts (user_id, reports)
    select user_id, count(*) from changed_rows
     where status in ('complete', 'closed') group by user_id
  on conflict (user_id) do update set reports = report_counts.reports + excluded.reports;
  return null;
end $$;

-- An update is a removal of the old row and an addition of the new one.
create function report_counts_update() returns trigger language plpgsql as $$
begin
  update report_counts rc set reports = rc.reports - gone.n
    from (select user_id, count(*) as n from old_rows
           where status in ('complete', 'closed') group by user_id) gone
   where rc.user_id = gone.user_id;
  insert into report_counts (user_id, reports)
    select user_id, count(*) from new_rows
     where status in ('complete', 'closed') group by user_id
  on conflict (user_id) do update set reports = report_counts.reports + excluded.reports;
  return null;
end $$;

-- Only decrements: when a user is deleted, their counter row is already gone by cascade and must
-- not be re-inserted (that would break the foreign key and the user's deletion).
create function report_counts_remove() returns trigger language plpgsql as $$
begin
  update report_counts rc set reports = rc.reports - gone.n
    from (select user_id, count(*) as n from changed_rows
           where status in ('complete', 'closed') group by user_id) gone
   where rc.user_id = gone.user_id;
  return null;
end $$;

create trigger report_counts_insert after insert on simulation_sessions
  referencing new table as changed_rows
  for each statement execute function report_counts_add();
create trigger report_counts_update after update on simulation_sessions
  referencing old table as old_rows new table as new_rows
  for each statement execute function report_counts_update();
create trigger report_counts_delete after delete on simulation_sessions
  referencing old table as changed_rows
  for each statement execute function report_counts_remove();

-- Bulk loads (and logical replicas) run with session_replication_role = replica, which skips
-- ordinary triggers; the counters must follow every write all the same.
alter table simulation_sessions enable always trigger report_counts_insert;
alter table simulation_sessions enable always trigger report_counts_update;
alter table simulation_sessions enable always trigger report_counts_delete;

-- The download a stored installer belongs to (file download access checks).
create index simulation_downloads_file_idx on simulation_downloads (file_id)
  where file_id is not null;
