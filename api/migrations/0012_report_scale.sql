-- Report lists at a million reports (issue #11 point 4): every page, in every allowed ordering and
-- for an organisation's educator as for a system administrator, must be read from one index range
-- of simulation_sessions instead of joining and sorting the organisation's (or everyone's) reports.
-- An ordering by the product's, category's or user's name, or by the analysis summary, cannot be
-- served by an index of simulation_sessions while those values live in other tables; so each
-- report carries them as sort keys, kept by triggers whenever the source changes. The lists still
-- *show* the joined names; the keys only decide the order and the scope.

-- The owner's organisation (the organisation scope) and the sort keys, with the same expressions
-- the repository ordered by before (lower-cased names; the session's configuration when it has no
-- category). sort_analysis ranks the analysis summary: 0 not_started, 1 partial, 2 completed.
alter table simulation_sessions
  add column organisation_id integer,
  add column sort_simulation text,
  add column sort_session text,
  add column sort_user text,
  add column sort_analysis smallint not null default 0;

-- The lists now order never-null keys without `nulls last`, so an ascending index serves both
-- directions: the (id) index of 0003 replaces its `id desc nulls last` twin, and the (recorded, id)
-- indexes below replace the recorded one. Dropped first, so the pass below does not update them.
drop index simulation_sessions_report_id_desc_idx;
drop index simulation_sessions_report_recorded_idx;

-- One pass over the reports. The report counters' update trigger is off meanwhile: no status
-- changes here, and it would only subtract and add back the same number for every report (through
-- transition tables of every row).
alter table simulation_sessions disable trigger report_counts_update;
update simulation_sessions s
   set organisation_id = u.organisation_id,
       sort_user = lower(u.first_name || ' ' || u.last_name),
       sort_simulation = lower(p.name),
       sort_session = lower(coalesce(
         (select c.display_name from product_categories c where c.id = s.category_id),
         s.configuration)),
       sort_analysis = (
         select case when count(*) > 0
                          and count(*) filter (where e.analysis_status_id in (22002, 22003))
                              = count(*) then 2
                     when count(*) filter (where e.analysis_status_id in (22002, 22003)) > 0
                     then 1
                     else 0 end
           from evidence e where e.session_uuid = s.uuid)
  from users u, products p
 where u.id = s.user_id and p.id = s.product_id;
alter table simulation_sessions enable always trigger report_counts_update;

alter table simulation_sessions
  alter column sort_simulation set not null,
  alter column sort_session set not null,
  alter column sort_user set not null;

-- A new or re-pointed session takes its keys from its owner, product and category.
create function simulation_sessions_sort_keys() returns trigger language plpgsql as $$
begin
  select u.organisation_id, lower(u.first_name || ' ' || u.last_name)
    into new.organisation_id, new.sort_user
    from users u where u.id = new.user_id;
  select lower(p.name) into new.sort_simulation from products p where p.id = new.product_id;
  new.sort_session := lower(coalesce(
    (select c.display_name from product_categories c where c.id = new.category_id),
    new.configuration));
  return new;
end $$;

create trigger simulation_sessions_sort_keys
  before insert or update of user_id, product_id, category_id, configuration
  on simulation_sessions for each row execute function simulation_sessions_sort_keys();

-- A renamed user, or one moved to another organisation, takes their reports along.
create function users_report_keys() returns trigger language plpgsql as $$
begin
  update simulation_sessions
     set organisation_id = new.organisation_id,
         sort_user = lower(new.first_name || ' ' || new.last_name)
   where user_id = new.id;
  return null;
end $$;

create trigger users_report_keys
  after update of organisation_id, first_name, last_name on users for each row
  when (old.organisation_id is distinct from new.organisation_id
        or old.first_name is distinct from new.first_name
        or old.last_name is distinct from new.last_name)
  execute function users_report_keys();

create function products_report_keys() returns trigger language plpgsql as $$
begin
  update simulation_sessions set sort_simulation = lower(new.name) where product_id = new.id;
  return null;
end $$;

create trigger products_report_keys
  after update of name on products for each row
  when (old.name is distinct from new.name)
  execute function products_report_keys();

create function product_categories_report_keys() returns trigger language plpgsql as $$
begin
  update simulation_sessions set sort_session = lower(new.display_name)
   where category_id = new.id;
  return null;
end $$;

create trigger product_categories_report_keys
  after update of display_name on product_categories for each row
  when (old.display_name is distinct from new.display_name)
  execute function product_categories_report_keys();

-- The analysis rank of the sessions whose evidence changed, recounted from all their evidence.
-- Statement-level with transition tables, so a bulk insert recounts each session once.
create function evidence_rank_sessions(uuids uuid[]) returns void language sql as $$
  update simulation_sessions s set sort_analysis = x.rank
    from (select u.uuid,
                 case when count(e.id) > 0
                           and count(e.id) filter (where e.analysis_status_id in (22002, 22003))
                               = count(e.id) then 2
                      when count(e.id) filter (where e.analysis_status_id in (22002, 22003)) > 0
                      then 1
                      else 0 end::smallint as rank
            from unnest(uuids) u(uuid)
            left join evidence e on e.session_uuid = u.uuid
           group by u.uuid) x
   where s.uuid = x.uuid and s.sort_analysis <> x.rank;
$$;

create function evidence_report_keys_new() returns trigger language plpgsql as $$
begin
  perform evidence_rank_sessions(array(select distinct session_uuid from changed_rows));
  return null;
end $$;

create function evidence_report_keys_update() returns trigger language plpgsql as $$
begin
  perform evidence_rank_sessions(array(
    select session_uuid from old_rows union select session_uuid from new_rows));
  return null;
end $$;

create trigger evidence_report_keys_insert after insert on evidence
  referencing new table as changed_rows
  for each statement execute function evidence_report_keys_new();
create trigger evidence_report_keys_update after update on evidence
  referencing old table as old_rows new table as new_rows
  for each statement execute function evidence_report_keys_update();
create trigger evidence_report_keys_delete after delete on evidence
  referencing old table as changed_rows
  for each statement execute function evidence_report_keys_new();

-- Like the report counters (0003): bulk loads run with session_replication_role = replica, and
-- the keys must follow every write all the same.
alter table simulation_sessions enable always trigger simulation_sessions_sort_keys;
alter table users enable always trigger users_report_keys;
alter table products enable always trigger products_report_keys;
alter table product_categories enable always trigger product_categories_report_keys;
alter table evidence enable always trigger evidence_report_keys_insert;
alter table evidence enable always trigger evidence_report_keys_update;
alter table evidence enable always trigger evidence_report_keys_delete;

-- One index per ordering and scope, ending in the id tiebreak, so a page is an index range
-- (forwards for ascending, backwards for descending orderings). The partial predicate matches
-- the repository's `status in ('complete', 'closed')`.
create index simulation_sessions_report_org_id_idx
  on simulation_sessions (organisation_id, id) where status in ('complete', 'closed');
create index simulation_sessions_report_org_recorded_idx
  on simulation_sessions (organisation_id, (coalesce(completed_at, closed_at, created_at)), id)
  where status in ('complete', 'closed');
create index simulation_sessions_report_org_simulation_idx
  on simulation_sessions (organisation_id, sort_simulation, id)
  where status in ('complete', 'closed');
create index simulation_sessions_report_org_session_idx
  on simulation_sessions (organisation_id, sort_session, id)
  where status in ('complete', 'closed');
create index simulation_sessions_report_org_user_idx
  on simulation_sessions (organisation_id, sort_user, id) where status in ('complete', 'closed');
create index simulation_sessions_report_org_analysis_idx
  on simulation_sessions (organisation_id, sort_analysis, id)
  where status in ('complete', 'closed');
-- Everyone's reports (view_all_reports). `id` has its index since 0003.
create index simulation_sessions_report_all_recorded_idx
  on simulation_sessions ((coalesce(completed_at, closed_at, created_at)), id)
  where status in ('complete', 'closed');
create index simulation_sessions_report_all_simulation_idx
  on simulation_sessions (sort_simulation, id) where status in ('complete', 'closed');
create index simulation_sessions_report_all_session_idx
  on simulation_sessions (sort_session, id) where status in ('complete', 'closed');
create index simulation_sessions_report_all_user_idx
  on simulation_sessions (sort_user, id) where status in ('complete', 'closed');
create index simulation_sessions_report_all_analysis_idx
  on simulation_sessions (sort_analysis, id) where status in ('complete', 'closed');

-- The filter (`ilike '%text%'`) on names and e-mails: trigram indexes answer a substring search
-- from the index instead of reading every user. pg_trgm ships with PostgreSQL's contrib and with
-- PGlite (loaded by the PGlite driver). In `public`, so every schema of a database shares one copy
-- (the tests put each file in its own schema); hence the qualified operator classes.
create extension if not exists pg_trgm with schema public;
create index users_name_trgm_idx
  on users using gin ((first_name || ' ' || last_name) public.gin_trgm_ops);
create index users_email_trgm_idx on users using gin (email public.gin_trgm_ops);
create index products_name_trgm_idx on products using gin (name public.gin_trgm_ops);
create index product_categories_display_name_trgm_idx
  on product_categories using gin (display_name public.gin_trgm_ops);
create index simulation_sessions_report_configuration_trgm_idx
  on simulation_sessions using gin (configuration public.gin_trgm_ops)
  where category_id is null and status in ('complete', 'closed');
