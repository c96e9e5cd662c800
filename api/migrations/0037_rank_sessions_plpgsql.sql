-- The analysis rank (0012) is recounted by a trigger on every evidence write: each submitted
-- image, each marking, each analysis. As a `language sql` function its update was planned again
-- at every call; PL/pgSQL keeps the plan for the connection's life, as the insight rows' refresh
-- (0034) already does. Same statement, same result.
create or replace function evidence_rank_sessions(uuids uuid[]) returns void
language plpgsql as $$
begin
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
end $$;
