-- An evidence upload's rows in one statement (issue #24 point 5). The upload's transaction made
-- nine round trips (begin, the user's and the session's locks, the count, the stored bytes, the
-- file, the evidence, its marking's outbox item and the score cleared, commit), and between any
-- two of them its connection waited for a busy event loop, `idle in transaction`: under the
-- learner load the uploads held most of the pool, and every other statement queued behind them.
-- The same checks, locks and writes in the same order, as one function: one round trip, and the
-- statement's own transaction makes it all or nothing as before.
--
-- The bytes of a user's files that count against their storage quota: evidence images and
-- uploads, not installers (an administrator's installer serves everyone; it is not their own
-- file). The one definition, for the upload's pre-check and for add_evidence's locked check.
create or replace function user_stored_bytes(p_user uuid) returns bigint
language sql stable as $$
  select coalesce(sum(size), 0)::bigint from files
   where owner_id = p_user and kind <> 'sim-installation-file'
$$;

-- Outcome: 'added' (new_id; pending: an X-ray image the session's marking scheme marks, queued
-- for the outbox worker as the item p_marking_* plus its id), 'not_in_progress' (current_status:
-- the session's, null when there is none), 'limit' (the session holds p_max_per_session already)
-- or 'storage_quota' (the image would take the learner past p_max_stored_bytes). Nothing is
-- written unless 'added'.
create or replace function add_evidence(
  p_session uuid,
  p_user uuid,
  p_practice_activity text,
  p_evidence_data jsonb,
  p_evidence_type text,
  p_file_id uuid,
  p_file_name text,
  p_file_mime text,
  p_file_size integer,
  p_file_key text,
  p_max_per_session integer,
  p_max_stored_bytes bigint,
  p_marking_kind text,
  p_marking_key text,
  p_marking_payload jsonb
) returns table (outcome text, current_status text, new_id integer, pending boolean)
language plpgsql as $$
#variable_conflict use_column
declare
  v_status text;
  v_owner uuid;
  v_position integer;
  v_id integer;
  v_pending boolean;
begin
  -- The user before the session, the order session creation locks them in: two uploads of one
  -- learner cannot both pass the quota, and the session cannot complete between check and insert.
  perform 1 from users where id = p_user for no key update;
  select s.status, s.user_id into v_status, v_owner
    from simulation_sessions s where s.uuid = p_session for update;
  if v_status is distinct from 'in_progress' then
    return query select 'not_in_progress'::text, v_status, null::integer, null::boolean;
    return;
  end if;

  select count(*)::integer into v_position from evidence where session_uuid = p_session;
  if v_position >= p_max_per_session then
    return query select 'limit'::text, v_status, null::integer, null::boolean;
    return;
  end if;

  if p_file_id is not null then
    if user_stored_bytes(v_owner) + p_file_size > p_max_stored_bytes then
      return query select 'storage_quota'::text, v_status, null::integer, null::boolean;
      return;
    end if;
    insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id)
    values (p_file_id, 'evidence-image', p_file_name, p_file_mime, p_file_size, p_file_key, 'saved',
            v_owner);
  end if;

  -- X-ray images of a configuration with a marking scheme wait for the outbox worker's marking:
  -- the item (kind, key and payload as mark-evidence.ts queues it) gets the image's id added.
  insert into evidence (session_uuid, position, practice_activity, image_file_id, evidence_data,
                        marking_pending)
  values (p_session, v_position, p_practice_activity, p_file_id, p_evidence_data,
          p_evidence_type = 'xray_image' and exists (
            select 1 from simulation_sessions s
              join product_configurations c
                on c.product_id = s.product_id
               and lower(c.configuration_name) = lower(s.configuration)
             where s.uuid = p_session and c.marking_scheme is not null))
  returning id, marking_pending into v_id, v_pending;

  if v_pending then
    insert into outbox (kind, key, payload)
    values (p_marking_kind, p_marking_key,
            p_marking_payload || jsonb_build_object('evidenceId', v_id));
    -- A session has no score while any of its images waits.
    update simulation_sessions set score = null where uuid = p_session and score is not null;
  end if;
  return query select 'added'::text, v_status, v_id, v_pending;
end $$;
