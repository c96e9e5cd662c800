-- Administration, part 2 (issue #9): installer versions kept by administrators, installers of up
-- to 2 GB, and the daily licence expiry job.

-- Installers stream to storage and may reach INSTALLER_MAX_BYTES (2 GiB = 2^31 bytes, one past
-- the integer range); every other upload keeps the spec's 10 MB.
alter table files alter column size type bigint;
alter table files drop constraint files_size_check;
alter table files add constraint files_size_check check (
  size >= 0
  and (size <= 10485760 or (kind = 'sim-installation-file' and size <= 2147483648))
);

-- Audit entries about simulation downloads. The entity list is extended in place rather than
-- restated: other migrations of this round (product configurations) extend it too, and restating
-- the list here would drop whatever they added.
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
  if position('''simulation_download''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''simulation_download''::text, ');
  end if;
end
$$;

-- The admin download list's default ordering (-isActive, newest version first) per product.
create index simulation_downloads_product_idx on simulation_downloads (product_id, is_active desc);

-- Jobs that run once per day whichever API process gets there first. The job's transaction
-- takes its row with `for update skip locked`, does the day's work and sets `last_run_on`, so
-- several processes never run it twice and a crash half-way leaves the day to be done again.
create table scheduled_jobs (
  name text primary key check (name ~ '^[a-z][a-z0-9_-]*$'),
  -- UTC day of the last completed run; null = never ran.
  last_run_on date,
  last_run_at timestamptz
);
insert into scheduled_jobs (name) values ('license-expiry');

-- The expiry job's search: active licences whose expiry day has passed.
create index license_blocks_active_expiry_idx on license_blocks (expiry_date) where is_active;
