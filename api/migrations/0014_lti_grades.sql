-- LTI Assignment and Grade Services (issue #10 point 4): grades reach the platform through the
-- outbox (kind `lti.score`, see api/src/lti/grade-passback.ts); each grade the platform accepted
-- or refused for good lands in the audit log as an `lti_score` (entity id: the session's uuid)
-- with the action `post` or `post_failed`, by the System actor.
--
-- Both CHECK lists are extended in place, as 0010, 0011 and 0013 do: restating them would drop
-- what other migrations of this round add.
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
  if position('''lti_score''' in def) = 0 then
    alter table audit_log drop constraint audit_log_entity_type_check;
    execute 'alter table audit_log add constraint audit_log_entity_type_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''lti_score''::text, ');
  end if;

  select pg_get_constraintdef(c.oid) into def
    from pg_constraint c
   where c.conrelid = 'audit_log'::regclass and c.conname = 'audit_log_action_check';
  if def is null then
    raise exception 'audit_log_action_check is missing';
  end if;
  if position('''post_failed''' in def) = 0 then
    alter table audit_log drop constraint audit_log_action_check;
    execute 'alter table audit_log add constraint audit_log_action_check '
      || regexp_replace(def, 'ARRAY\[', 'ARRAY[''post''::text, ''post_failed''::text, ');
  end if;
end
$$;

