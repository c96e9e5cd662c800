-- Administration, part 1 (issue #8): seats that can never be overbooked, text bounds of the admin
-- forms, and the audit log of every admin write.

-- Seats in use, kept by triggers on license_block_users, so that the seat limit is a CHECK on one
-- row. A seat insert updates its licence row; concurrent inserts into one licence therefore queue
-- on that row's lock, and each re-checks the constraint against the latest committed count
-- (PostgreSQL re-evaluates an UPDATE on the newest row version), at any isolation level and
-- whatever code path inserts. The constraint also refuses lowering number_of_seats below the
-- seats in use.
alter table license_blocks add column seats_used integer not null default 0;
update license_blocks lb
   set seats_used = (select count(*) from license_block_users u where u.license_block_id = lb.id);
alter table license_blocks
  add constraint license_blocks_seats_check check (seats_used between 0 and number_of_seats);

-- Statement-level with transition tables: a bulk add of 10 000 users is one update per licence,
-- not one trigger call per seat.
create function license_seats_add() returns trigger language plpgsql as $$
begin
  update license_blocks lb set seats_used = lb.seats_used + added.n
    from (select license_block_id, count(*)::int as n from changed_rows
           group by license_block_id) added
   where lb.id = added.license_block_id;
  return null;
end $$;

create function license_seats_remove() returns trigger language plpgsql as $$
begin
  update license_blocks lb set seats_used = lb.seats_used - gone.n
    from (select license_block_id, count(*)::int as n from changed_rows
           group by license_block_id) gone
   where lb.id = gone.license_block_id;
  return null;
end $$;

-- A seat moved to another licence frees one and takes one.
create function license_seats_move() returns trigger language plpgsql as $$
begin
  update license_blocks lb set seats_used = lb.seats_used + delta.n
    from (select license_block_id, sum(n)::int as n
            from (select license_block_id, -1 as n from old_rows
                  union all
                  select license_block_id, 1 as n from new_rows) moves
           group by license_block_id) delta
   where lb.id = delta.license_block_id and delta.n <> 0;
  return null;
end $$;

create trigger license_seats_insert after insert on license_block_users
  referencing new table as changed_rows
  for each statement execute function license_seats_add();
create trigger license_seats_delete after delete on license_block_users
  referencing old table as changed_rows
  for each statement execute function license_seats_remove();
create trigger license_seats_update after update on license_block_users
  referencing old table as old_rows new table as new_rows
  for each statement execute function license_seats_move();

-- Bulk loads run with session_replication_role = replica, which skips ordinary triggers; the seat
-- count must follow every write all the same.
alter table license_block_users enable always trigger license_seats_insert;
alter table license_block_users enable always trigger license_seats_delete;
alter table license_block_users enable always trigger license_seats_update;

-- The forms' bounds, so that no other writer stores what the API would refuse.
alter table organisations
  add constraint organisations_text_length_check check (
    char_length(name) <= 255
    and coalesce(char_length(city), 0) <= 255
    and coalesce(char_length(main_contact), 0) <= 255
    and coalesce(char_length(primary_technical_contact), 0) <= 255);
alter table license_blocks
  add constraint license_blocks_text_length_check check (
    char_length(license_name) <= 255 and coalesce(char_length(sales_reference), 0) <= 255);

-- Licence lists of one organisation, by name.
create index license_blocks_organisation_name_idx
  on license_blocks (organisation_id, lower(license_name), id);
-- A licence's seat holders, newest first.
create index license_block_users_block_idx on license_block_users (license_block_id, assigned_at);

-- Every admin write: who, what, when, before and after. The actor's name and e-mail are copied,
-- so an entry still says who acted after that user is deleted.
create table audit_log (
  id integer generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id uuid references users (id) on delete set null,
  actor_name text not null,
  actor_email text not null,
  action text not null check (action in ('create', 'update', 'delete', 'assign', 'unassign')),
  entity_type text not null
    check (entity_type in ('organisation', 'license_block', 'license_block_user', 'user', 'file')),
  entity_id text not null check (char_length(entity_id) between 1 and 100),
  organisation_id integer references organisations (id) on delete set null,
  before jsonb,
  after jsonb,
  check (before is not null or after is not null)
);
-- The organisation page's history, newest first; the global list uses the primary key.
create index audit_log_organisation_idx on audit_log (organisation_id, id desc);
create index audit_log_entity_idx on audit_log (entity_type, entity_id, id desc);
create index audit_log_at_idx on audit_log (at desc, id desc);
