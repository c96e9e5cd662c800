-- Issue #22 leftovers. Hosted Canvas shows tools from the school's own address
-- (https://school.instructure.com), neither the issuer nor the auth endpoint: an administrator
-- names such origins, and they join the frame-ancestors of the LTI pages. Scheme, host and port
-- only (checked by the API), at most 20.
alter table lti_platforms add column frame_origins text[] not null default '{}';

-- Brightspace wants its OAuth2 audience (https://api.brightspace.com/auth/token) as the aud of
-- the tool's client assertion, not the token URL; null = the token URL (LTI Security Framework).
alter table lti_platforms add column token_audience text;

-- Audit: an instructor's choice of when their course's grades go out (issue #23 point 2), entity
-- `lti_course`, extended in place as 0032 does.
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
  if position('''lti_course''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''lti_course''::text, ');
  end if;
end
$$;
