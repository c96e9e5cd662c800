-- Report lists at a million reports, continued (issue #11 point 4).
--
-- Ordering by recorded: the (scope, recorded, id) indexes of 0012 hold the recorded time as an
-- expression, which PostgreSQL cannot hand back from the index, so every entry a page skips was
-- also read from the table: page 500 read ~10 000 table rows (9 024 buffers) where the other
-- orderings' index-only scans read ~3 000 index pages. With the expression's three columns in
-- the index (INCLUDE), the planner recomputes it from the index entry and the scan is index-only
-- too. The predicate and keys are those of 0012, so the list's query does not change.
drop index simulation_sessions_report_org_recorded_idx;
create index simulation_sessions_report_org_recorded_idx
  on simulation_sessions (organisation_id, (coalesce(completed_at, closed_at, created_at)), id)
  include (completed_at, closed_at, created_at)
  where status in ('complete', 'closed');

drop index simulation_sessions_report_all_recorded_idx;
create index simulation_sessions_report_all_recorded_idx
  on simulation_sessions ((coalesce(completed_at, closed_at, created_at)), id)
  include (completed_at, closed_at, created_at)
  where status in ('complete', 'closed');

