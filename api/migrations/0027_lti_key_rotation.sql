-- Tool key rotation with pre-publication (issue #22 point 5). A key is published in the JWKS from
-- its creation and signs from `signs_from`, at least a day later when rotated on schedule, so
-- platforms that cached the JWKS have it before the first token it signs. `retired_at` is now
-- the moment a key stops signing (its successor's `signs_from`); it stays published a day after.
alter table lti_tool_keys add column signs_from timestamptz;
update lti_tool_keys set signs_from = coalesce(least(created_at, retired_at), created_at);
alter table lti_tool_keys alter column signs_from set not null;
alter table lti_tool_keys alter column signs_from set default now();
create index lti_tool_keys_signs_from_idx on lti_tool_keys (signs_from desc);

-- The scheduled rotation (every 90 days) looks once a day, whichever API process comes first.
insert into scheduled_jobs (name) values ('lti-key-rotation');

-- Audit entries about the tool's keys, the entity list extended in place as 0017 does.
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
  if position('''lti_tool_key''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''lti_tool_key''::text, ');
  end if;
end
$$;
