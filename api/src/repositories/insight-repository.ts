import type {
  InsightLearner,
  InsightProjection,
  InsightWeek,
  ProgressProjection,
} from '@portal/contract';
import { PROGRESS_MAX_POINTS } from '@portal/contract';
import type { Queryable } from '../db/driver';

/** What one insight request covers: an organisation's reports recorded in [from, to] (UTC days). */
export interface InsightFilter {
  organisationId: number;
  from: string;
  to: string;
  productId: number | null;
  configuration: string | null;
  learner: string | null;
}

/** When a report counts, as the report lists date it (report-repository's RECORDED). */
export const RECORDED = 'coalesce(s.completed_at, s.closed_at, s.created_at)';

/**
 * The organisation's reports in the range. Written with the very expressions of the partial
 * index simulation_sessions_report_org_recorded_idx (migration 0012), so the range is one index
 * range whatever the filters. Parameters $1…$6 as filterParams gives them.
 */
export const REPORTS_IN_RANGE = `
  select s.uuid, s.id, s.user_id, s.product_id, s.configuration, s.score, s.pass_mark,
         ${RECORDED} as recorded
    from simulation_sessions s
   where s.organisation_id = $1
     and s.status in ('complete', 'closed')
     and ${RECORDED} >= ($2::date)::timestamp at time zone 'UTC'
     and ${RECORDED} < ($3::date + 1)::timestamp at time zone 'UTC'
     and ($4::int is null or s.product_id = $4)
     and ($5::text is null or lower(s.configuration) = lower($5))
     and ($6::uuid is null or s.user_id = $6)`;

export const filterParams = (f: InsightFilter) => [
  f.organisationId,
  f.from,
  f.to,
  f.productId,
  f.configuration,
  f.learner,
];

/**
 * X-ray images of those reports, from migration 0034's insight_images (one row per image, with
 * its session's organisation, recorded time, owner, product, configuration and pass mark): one
 * range of insight_images_org_recorded_idx instead of a probe of evidence per report. Parameters
 * as REPORTS_IN_RANGE's, with the same conditions on the copied columns.
 */
export const IMAGES_IN_RANGE = `
  select i.*
    from insight_images i
   where i.organisation_id = $1
     and i.reported
     and i.recorded >= ($2::date)::timestamp at time zone 'UTC'
     and i.recorded < ($3::date + 1)::timestamp at time zone 'UTC'
     and ($4::int is null or i.product_id = $4)
     and ($5::text is null or i.configuration_key = lower($5))
     and ($6::uuid is null or i.user_id = $6)`;

/**
 * Those images with their dose against the DRL of their configuration's current scheme (the DAP
 * the dose criterion assessed ÷ the scheme's DRL; null without a dose criterion or a DAP). The
 * DRLs are read once into a CTE (a few dozen configurations): joined per image, the planner's
 * nested loop re-read product_configurations for every image (130 of 207 ms at 17 700 images).
 * Grouped by the projection in the "C" collation (byte order, abbreviated sort keys): the same
 * groups, since equality is byte equality in any deterministic collation, without a locale-aware
 * sort of every image (66 of 99 ms at 90 days); the answer is still ordered in the database's.
 * Both percentiles come from one percentile_cont over an array: one sort of a projection's
 * values instead of two.
 */
const IMAGES = `
  drl as materialized (
    select c.product_id, lower(c.configuration_name) as configuration,
           nullif((c.marking_scheme #>> '{criteria,dose,drlDapMGyCm2}')::float8, 0) as drl
      from product_configurations c),
  images as (
    select i.projection collate "C" as projection, i.score, i.pass_mark, i.is_repeat,
           i.dose_value / d.drl as dose_to_drl
      from (${IMAGES_IN_RANGE}) i
      left join drl d on d.product_id = i.product_id and d.configuration = i.configuration_key)`;

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));
const round = (v: number | null, digits = 4) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

export interface InsightTotals {
  sessions: number;
  activeLearners: number;
  images: number;
  meanMark: number | null;
}

export function createInsightRepository(q: Queryable) {
  /**
   * The learners and, from the same scan of the reports, the totals' sessions, learners and mean
   * mark (a query of its own before, which read the same index range again). The first and last
   * marked scores come from one ordered array per learner instead of two ordered aggregates.
   */
  async function learnersAndTotals(f: InsightFilter) {
    const res = await q.query<{
      user_id: string;
      first_name: string;
      last_name: string;
      email: string | null;
      platform_issuer: string | null;
      sessions: number;
      mean_mark: string | number | null;
      marked: number;
      score_sum: number | null;
      first_score: number | null;
      last_score: number | null;
      last_active: Date | string;
    }>(
      `with reports as (${REPORTS_IN_RANGE}),
       per_learner as (
         select user_id, count(*)::int as sessions, avg(score) as mean_mark,
                count(score)::int as marked, sum(score)::int as score_sum,
                array_agg(score order by recorded, id) filter (where score is not null) as scores,
                max(recorded) as last_active
           from reports group by user_id)
       select u.id::text as user_id, u.first_name, u.last_name, u.email, k.issuer as platform_issuer,
              p.sessions, p.mean_mark, p.marked, p.score_sum, p.scores[1] as first_score,
              p.scores[cardinality(p.scores)] as last_score, p.last_active
         from per_learner p
         join users u on u.id = p.user_id
         left join lateral (
           select l.issuer from lti_user_links l
            where l.user_id = u.id and u.email is null
            order by l.created_at, l.issuer limit 1) k on true
        order by lower(u.first_name || ' ' || u.last_name), u.id`,
      filterParams(f),
    );
    const learners = res.rows.map((r) => ({
      userId: r.user_id,
      name: displayName(r),
      sessions: r.sessions,
      meanMark: round(num(r.mean_mark), 2),
      firstToLastChange:
        r.marked >= 2 && r.first_score !== null && r.last_score !== null
          ? r.last_score - r.first_score
          : null,
      lastActive: new Date(r.last_active).toISOString(),
    }));
    const marked = res.rows.reduce((n, r) => n + r.marked, 0);
    const scoreSum = res.rows.reduce((n, r) => n + (r.score_sum ?? 0), 0);
    return {
      learners,
      totals: {
        sessions: res.rows.reduce((n, r) => n + r.sessions, 0),
        activeLearners: res.rows.length,
        meanMark: marked === 0 ? null : round(scoreSum / marked, 2),
      },
    };
  }

  const repository = {
    /**
     * Everything the insight screen shows, in three queries on separate connections of the pool
     * (they run at once on PostgreSQL): weeks, projections, and learners with the totals. The
     * totals' image count is the projections' sum: every image has a projection.
     */
    async insight(f: InsightFilter): Promise<{
      totals: InsightTotals;
      weeks: InsightWeek[];
      projections: InsightProjection[];
      learners: InsightLearner[];
    }> {
      const [weeks, projections, { learners, totals }] = await Promise.all([
        repository.weeks(f),
        repository.projections(f),
        learnersAndTotals(f),
      ]);
      const images = projections.reduce((n, p) => n + p.images, 0);
      return { totals: { ...totals, images }, weeks, projections, learners };
    },

    /** Sessions and distinct learners per Monday-starting UTC week that has any. */
    async weeks(f: InsightFilter): Promise<InsightWeek[]> {
      const res = await q.query<{ week_start: string; sessions: number; learners: number }>(
        `with reports as (${REPORTS_IN_RANGE})
         select to_char(week, 'YYYY-MM-DD') as week_start, sessions, learners
           from (select date_trunc('week', recorded at time zone 'UTC') as week,
                        count(*)::int as sessions, count(distinct user_id)::int as learners
                   from reports group by 1) w
          order by week`,
        filterParams(f),
      );
      return res.rows.map((r) => ({
        weekStart: r.week_start,
        sessions: r.sessions,
        activeLearners: r.learners,
      }));
    },

    /** Per projection, most images first (then by name, so ties keep one order). */
    async projections(f: InsightFilter): Promise<InsightProjection[]> {
      const res = await q.query<{
        projection: string;
        images: number;
        repeat_rate: number;
        reject_rate: number | null;
        percentiles: (number | null)[] | null;
        mean_mark: string | number | null;
      }>(
        `with ${IMAGES}
         select projection, count(*)::int as images,
                avg(case when is_repeat then 1.0 else 0.0 end)::float8 as repeat_rate,
                (count(*) filter (where score < pass_mark))::float8
                  / nullif(count(*) filter (where score is not null and pass_mark is not null), 0)
                  as reject_rate,
                percentile_cont(array[0.5, 0.75]) within group (order by dose_to_drl)
                  as percentiles,
                avg(score) as mean_mark
           from images group by projection
          order by images desc, projection collate "default"`,
        filterParams(f),
      );
      return res.rows.map((r) => ({
        projection: r.projection,
        images: r.images,
        repeatRate: round(Number(r.repeat_rate)) ?? 0,
        rejectRate: round(num(r.reject_rate)),
        medianDoseToDrl: round(num(r.percentiles?.[0] ?? null)),
        p75DoseToDrl: round(num(r.percentiles?.[1] ?? null)),
        meanMark: round(num(r.mean_mark), 2),
      }));
    },

    /**
     * Per learner with a report in the range, by name. Marks are the sessions' computed scores;
     * the change is the last marked session's score minus the first's.
     */
    async learners(f: InsightFilter): Promise<InsightLearner[]> {
      return (await learnersAndTotals(f)).learners;
    },

    /** Whether the user belongs to the organisation. */
    async isMember(organisationId: number, userId: string): Promise<boolean> {
      const res = await q.query(
        'select 1 from users where id = $1::uuid and organisation_id = $2',
        [userId, organisationId],
      );
      return res.rows.length > 0;
    },

    async organisationExists(organisationId: number): Promise<boolean> {
      const res = await q.query('select 1 from organisations where id = $1', [organisationId]);
      return res.rows.length > 0;
    },

    /**
     * The learner's own trend: per projection, each marked report's mean image mark, the
     * PROGRESS_MAX_POINTS most recent, oldest first.
     */
    async progress(userId: string): Promise<ProgressProjection[]> {
      const res = await q.query<{
        projection: string;
        uuid: string;
        recorded: Date | string;
        mark: string | number;
      }>(
        `with points as (
           select e.practice_activity as projection, s.uuid::text as uuid, s.id,
                  ${RECORDED} as recorded, avg(e.score) as mark
             from simulation_sessions s
             join evidence e on e.session_uuid = s.uuid
            where s.user_id = $1 and s.status in ('complete', 'closed') and e.score is not null
            group by e.practice_activity, s.uuid, s.id, ${RECORDED}),
         ranked as (
           select *, row_number() over (partition by projection order by recorded desc, id desc) as n
             from points)
         select projection, uuid, recorded, mark from ranked where n <= $2
          order by projection, recorded, id`,
        [userId, PROGRESS_MAX_POINTS],
      );
      const byProjection = new Map<string, ProgressProjection>();
      for (const r of res.rows) {
        const entry = byProjection.get(r.projection) ?? { projection: r.projection, points: [] };
        entry.points.push({
          reportId: r.uuid,
          recorded: new Date(r.recorded).toISOString(),
          mark: round(Number(r.mark), 2) ?? 0,
        });
        byProjection.set(r.projection, entry);
      }
      return [...byProjection.values()];
    },
  };
  return repository;
}

/** As the user lists name people: by name, else as "Learner from <platform host>", else e-mail. */
function displayName(r: {
  first_name: string;
  last_name: string;
  email: string | null;
  platform_issuer: string | null;
}): string {
  const name = `${r.first_name} ${r.last_name}`.trim();
  if (name) return name;
  if (r.platform_issuer) {
    try {
      return `Learner from ${new URL(r.platform_issuer).host}`;
    } catch {
      return `Learner from ${r.platform_issuer}`;
    }
  }
  return r.email ?? '';
}

export type InsightRepository = ReturnType<typeof createInsightRepository>;
