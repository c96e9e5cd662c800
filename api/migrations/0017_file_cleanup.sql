-- Daily clean-up of files no record keeps (issue #9): uploads never saved with a form, and saved
-- installers or configuration files a newer upload replaced. The job claims its day in
-- scheduled_jobs as the licence expiry job does, so several API processes run it once.
insert into scheduled_jobs (name) values ('file-cleanup');

-- The job's search: files not yet saved, oldest first.
create index files_unsaved_created_idx on files (created_at) where state <> 'saved';

-- Audit entries about products (their configuration schema, replaced by global administrators),
-- the entity list extended in place as 0011 and 0013 do.
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
  if position('''product''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''product''::text, ');
  end if;
end
$$;
