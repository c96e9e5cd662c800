import {
  ANALYSIS_STATUS,
  type AnalysisBody,
  type AnalysisStatusSummary,
  type CriterionMark,
  type Evidence,
  type FeedbackComment,
  type MarkOverride,
  type EvidenceData,
  type LearnerReportListQuery,
  type LearnerReportRow,
  type PagedQuery,
  type PagedResult,
  type Report,
  type ReportDetails,
  type ReportRow,
  type REPORT_ORDERING_FIELDS,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { toComment, toOverride, type CommentRow, type OverrideRow } from './feedback-repository';
import { CRITERION_ORDER, toCriterionMark, type MarkRow } from './marking-repository';
import { prepared } from '../db/prepared';
import { escapeLike, pagedList } from '../lib/paged-list';

/**
 * Whose reports a list shows: the caller's own, every member's of one organisation, or everyone's.
 * Routes pick it from the caller's permissions; the repository only turns it into SQL.
 */
export type ReportScope =
  | { kind: 'own'; userId: string }
  | { kind: 'organisation'; organisationId: number }
  | { kind: 'all' };

/** Who may read one report (see `canSee`). */
export interface ReportViewer {
  id: string;
  organisationId: number | null;
  permissions: readonly string[];
}

/** A session that ended is a report; the partial indexes of migration 0003 repeat this predicate. */
const IS_REPORT = `s.status in ('complete', 'closed')`;
/** A closed session may never have reached `complete`; it was recorded when it was closed. */
const RECORDED = 'coalesce(s.completed_at, s.closed_at, s.created_at)';
const SESSION_NAME = 'coalesce(c.display_name, s.configuration)';
const USER_NAME = `(u.first_name || ' ' || u.last_name)`;
const ANALYSED = [ANALYSIS_STATUS.accepted, ANALYSIS_STATUS.rejected];

// Left joins to unique keys (the foreign keys are not null, so no row is lost): the planner drops
// the ones a query does not use, so counting or paging by `id` never touches them.
const FROM = `simulation_sessions s
  left join users u on u.id = s.user_id
  left join products p on p.id = s.product_id
  left join product_categories c on c.id = s.category_id`;

const SELECT = `s.id, s.uuid, p.name as simulation, ${SESSION_NAME} as session,
  ${RECORDED} as recorded, s.report_details is not null as has_report_details,
  ${USER_NAME} as user_name`;

/**
 * Orderings by a joined name or by the analysis summary use the report's own sort keys (kept by
 * the triggers of migration 0012): an index of simulation_sessions per ordering then serves any
 * page in both directions, where sorting the joined rows grew with the number of reports.
 */
const SORTABLE = {
  id: 's.id',
  simulation: 's.sort_simulation',
  session: 's.sort_session',
  recorded: RECORDED,
  user: 's.sort_user',
  analysisStatusSummary: 's.sort_analysis',
} as const satisfies Record<(typeof REPORT_ORDERING_FIELDS)[number], string>;
/** Every sort key above is not null. */
const NOT_NULL = Object.keys(SORTABLE);
/** The tiebreak runs in the ordering's direction, as the `(…, id)` indexes are read. */
const TIE_BREAKER = (descending: boolean) => (descending ? 's.id desc' : 's.id asc');

interface ListRow {
  id: number;
  uuid: string;
  simulation: string;
  session: string;
  recorded: Date | string;
  has_report_details: boolean;
  user_name: string;
}

interface ReportRowRecord {
  id: number;
  uuid: string;
  user_id: string;
  organisation_id: number | null;
  simulation: string;
  description: string;
  recorded: Date | string;
  mode: string;
  first_name: string;
  last_name: string;
  email: string;
  report_details: Record<string, unknown> | null;
  score: number | null;
  reported_score: number | null;
  pass_mark: number | null;
  grade_pending_since: Date | string | null;
  grade_released_at: Date | string | null;
  /** The educator's comment on the whole report (report_feedback), as JSON. */
  report_comment: CommentRow | null;
}

interface EvidenceRecord {
  id: number;
  practice_activity: string;
  analysis: string | null;
  analysis_status_id: number;
  evidence_data: EvidenceData;
  has_image: boolean;
  score: string | number | null;
  marking_pending: boolean;
}

/** An image with its marks, comment and overrides, as the report read's one statement has them. */
interface EvidenceDetailRecord extends EvidenceRecord {
  marks: MarkRow[] | null;
  comment: CommentRow | null;
  overrides: OverrideRow[] | null;
}

/** An image's row with its marks, comment and overrides as JSON (`EvidenceDetailRecord`). */
const EVIDENCE_DETAIL = `select e.id, e.practice_activity, e.analysis, e.analysis_status_id,
              e.evidence_data, e.image_file_id is not null as has_image, e.score, e.marking_pending,
              (select json_agg(json_build_object('criterion', m.criterion, 'mark', m.mark,
                        'max', m.max, 'reason', m.reason, 'value', m.value,
                        'limit_value', m.limit_value) order by ${CRITERION_ORDER})
                 from evidence_marks m where m.evidence_id = e.id) as marks,
              (select json_build_object('comment', f.comment, 'author_name', f.author_name,
                        'updated_at', f.updated_at)
                 from evidence_feedback f where f.evidence_id = e.id) as comment,
              (select json_agg(json_build_object('criterion', m.criterion,
                        'original_mark', m.original_mark, 'mark', m.mark,
                        'override_reason', m.override_reason,
                        'overridden_by_name', m.overridden_by_name,
                        'overridden_at', m.overridden_at) order by ${CRITERION_ORDER})
                 from evidence_marks m
                where m.evidence_id = e.id and m.override_reason is not null) as overrides
         from evidence e`;
/** A report's row by uuid, with its owner and its comment: a look-up by key, planned once. */
const FIND_RECORD_SQL = prepared(
  `select s.id, s.uuid, s.user_id, u.organisation_id, p.name as simulation,
          ${SESSION_NAME} as description, ${RECORDED} as recorded, s.mode,
          u.first_name, u.last_name, u.email, s.report_details, s.score,
          s.reported_score, s.pass_mark, s.grade_pending_since, s.grade_released_at,
          (select json_build_object('comment', rf.comment, 'author_name', rf.author_name,
                    'updated_at', rf.updated_at)
             from report_feedback rf where rf.session_uuid = s.uuid) as report_comment
     from ${FROM}
    where s.uuid = $1 and ${IS_REPORT}`,
);

const EVIDENCE_OF_REPORT = prepared(
  `${EVIDENCE_DETAIL} where e.session_uuid = $1 order by e.position`,
);
const ONE_EVIDENCE_OF_REPORT = prepared(
  `${EVIDENCE_DETAIL} where e.session_uuid = $1 and e.id = $2`,
);

export interface EvidenceImage {
  id: number;
  storageKey: string;
  mimeType: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();
/** The permission only global administrators hold (lib/object-access.ts isGlobalAdmin). */
const GLOBAL_ADMIN_PERMISSION = 'global.create_org';

/** docs/requirements.md#data: every item analysed → completed, some → partial, none (or nothing to analyse) → not_started. */
export function summarise(total: number, analysed: number): AnalysisStatusSummary {
  if (total > 0 && analysed === total) return 'completed';
  if (analysed > 0) return 'partial';
  return 'not_started';
}

function scopeCondition(scope: ReportScope): { sql: string; params: unknown[] } {
  switch (scope.kind) {
    case 'own':
      return { sql: `${IS_REPORT} and s.user_id = $1`, params: [scope.userId] };
    case 'organisation':
      // The owner's organisation as the report carries it (migration 0012), so the scope and the
      // ordering are one index range.
      return { sql: `${IS_REPORT} and s.organisation_id = $1`, params: [scope.organisationId] };
    case 'all':
      return { sql: IS_REPORT, params: [] };
  }
}

/** The scope narrowed to one learner's reports. */
function ofLearner(scope: ReportScope, learnerId: string): { sql: string; params: unknown[] } {
  const scoped = scopeCondition(scope);
  return {
    sql: `${scoped.sql} and s.user_id = $${scoped.params.length + 1}::uuid`,
    params: [...scoped.params, learnerId],
  };
}

/** The scope's report count from the counters migration 0003 keeps, instead of counting rows. */
function scopeCount(scope: ReportScope): { sql: string; params: unknown[] } {
  switch (scope.kind) {
    case 'own':
      return {
        sql: 'select coalesce((select reports from report_counts where user_id = $1), 0)::int as count',
        params: [scope.userId],
      };
    case 'organisation':
      return {
        sql: `select coalesce(sum(rc.reports), 0)::int as count
                from report_counts rc join users u on u.id = rc.user_id
               where u.organisation_id = $1`,
        params: [scope.organisationId],
      };
    case 'all':
      return {
        sql: 'select coalesce(sum(reports), 0)::int as count from report_counts',
        params: [],
      };
  }
}

/**
 * What a filter matches, looked up before the reports are: products, categories and users are
 * small tables (trigram indexes, migration 0012), and the matches are then passed as values, so the
 * planner sees how few there are and reads the reports through the matching index ranges instead
 * of every report of the scope.
 */
interface FilterMatches {
  /** Lower-cased names of matching products (= the reports' sort_simulation). */
  simulations: string[];
  /**
   * The reports' sort_session values that match: lower-cased display names of matching categories
   * and lower-cased configurations of matching reports without a category.
   */
  sessions: string[];
  /** Users of the scope whose name or e-mail matches (learner lists only). */
  users: string[];
}

/** One alternative of the filter: a condition on simulation_sessions alone. */
interface SearchArm {
  sql: string;
  /**
   * The arm already stays within the scope's organisation (its users were looked up in it), so
   * counting it needs no organisation condition: each report carries its owner's organisation
   * (migration 0012), and without the condition the count is an index-only scan of the users'
   * `(user_id, id)` range instead of a bitmap over the organisation's reports.
   */
  inScope: boolean;
}

/**
 * The filter as conditions on simulation_sessions alone, one arm per kind of match that found
 * anything. A product or category matches by its lower-cased name, which is the report's sort key:
 * `ilike` compares lower-cased text, so every other name with the same lower-cased form matches
 * too, and the result is the same as comparing ids. The same holds for a report without a
 * category, whose sort_session is its lower-cased configuration: a category that shares that
 * lower-cased name matches the filter itself, so one `sort_session` arm serves both.
 */
function searchArms(matches: FilterMatches): { arms: SearchArm[]; params: unknown[] } {
  const arms: SearchArm[] = [];
  const params: unknown[] = [];
  const value = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (matches.simulations.length > 0) {
    arms.push({
      sql: `s.sort_simulation = any(${value(matches.simulations)}::text[])`,
      inScope: false,
    });
  }
  if (matches.sessions.length > 0) {
    arms.push({ sql: `s.sort_session = any(${value(matches.sessions)}::text[])`, inScope: false });
  }
  if (matches.users.length > 0) {
    arms.push({ sql: `s.user_id = any(${value(matches.users)}::uuid[])`, inScope: true });
  }
  return { arms, params };
}

/** Renumbers `$n` placeholders of `sql` by `offset`, to append its params after others. */
function shiftParams(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/**
 * Counts the reports of the scope that match any arm, arm by arm: each arm is an index-only range
 * (a product's reports of an organisation, the matching users' reports), where one scan of the
 * arms or'ed together must visit every matching row. Arms only need deduplicating (`union`) when
 * there are several. The scope's parameters come first only when some arm uses them: PostgreSQL
 * refuses a parameter it cannot type because nothing refers to it.
 */
function searchCount(
  scoped: { sql: string; params: unknown[] },
  search: { arms: SearchArm[]; params: unknown[] },
): { sql: string; params: unknown[] } {
  if (search.arms.length === 0) return { sql: 'select 0 as count', params: [] };
  const usesScope = search.arms.some((arm) => !arm.inScope);
  const offset = usesScope ? scoped.params.length : 0;
  const selects = search.arms.map(
    (arm) =>
      `select s.id from simulation_sessions s
        where ${arm.inScope ? IS_REPORT : scoped.sql} and ${shiftParams(arm.sql, offset)}`,
  );
  return {
    sql:
      selects.length === 1
        ? `select count(*)::int as count from (${selects[0]}) matched`
        : `select count(*)::int as count from (${selects.join(' union ')}) matched`,
    params: usesScope ? [...scoped.params, ...search.params] : search.params,
  };
}

/** Simulator-written JSON, read defensively so an odd row cannot break the response schema. */
function toReportDetails(raw: Record<string, unknown> | null): ReportDetails | null {
  if (!raw) return null;
  const details: ReportDetails = { summary: typeof raw.summary === 'string' ? raw.summary : '' };
  if (Number.isInteger(raw.score)) details.score = raw.score as number;
  if (Number.isInteger(raw.durationSeconds))
    details.durationSeconds = raw.durationSeconds as number;
  return details;
}

export function createReportRepository(q: Queryable) {
  /** Analysis summaries of just these sessions (one page), keyed by uuid. */
  async function summaries(uuids: readonly string[]): Promise<Map<string, AnalysisStatusSummary>> {
    const result = new Map<string, AnalysisStatusSummary>();
    if (uuids.length === 0) return result;
    const res = await q.query<{ session_uuid: string; total: number; analysed: number }>(
      `select session_uuid, count(*)::int as total,
              count(*) filter (where analysis_status_id = any($2::int[]))::int as analysed
         from evidence
        where session_uuid = any($1::uuid[])
        group by session_uuid`,
      [uuids, ANALYSED],
    );
    for (const row of res.rows) result.set(row.session_uuid, summarise(row.total, row.analysed));
    return result;
  }

  /**
   * `users` = whose names to search: none (own list), every user's, or one organisation's.
   * Searching only the organisation's users keeps the list short where a common text (a first
   * name, "Learner 1") matches thousands of users of other organisations.
   */
  async function filterMatches(
    pattern: string,
    users: { organisationId: number | null } | null,
  ): Promise<FilterMatches> {
    const like = (column: string) => `${column} ilike $1 escape '\\'`;
    const userSearch =
      users === null
        ? "'{}'::uuid[]"
        : `array(select id from users
                  where ${users.organisationId === null ? '' : 'organisation_id = $2 and '}
                        (${like("(first_name || ' ' || last_name)")} or ${like('email')}))`;
    const res = await q.query<FilterMatches>(
      `select array(select distinct lower(name) from products where ${like('name')}) as simulations,
              array(select lower(display_name) from product_categories
                     where ${like('display_name')}
                    union
                    -- The partial trigram index of migration 0012 holds exactly these reports.
                    select lower(s.configuration) from simulation_sessions s
                     where s.category_id is null and ${IS_REPORT}
                       and ${like('s.configuration')}) as sessions,
              ${userSearch} as users`,
      users === null || users.organisationId === null ? [pattern] : [pattern, users.organisationId],
    );
    return res.rows[0] ?? { simulations: [], sessions: [], users: [] };
  }

  async function list(
    scope: ReportScope,
    query: PagedQuery & { learnerId?: string },
    searchUsers: boolean,
  ): Promise<PagedResult<LearnerReportRow>> {
    const { learnerId } = query;
    // One learner's reports within the scope: the learner is a further condition on the scope, never
    // a replacement for it, so another organisation's learner lists nothing.
    const scoped = learnerId === undefined ? scopeCondition(scope) : ofLearner(scope, learnerId);
    let where = scoped;
    let count =
      learnerId === undefined
        ? scopeCount(scope)
        : // One learner's reports are few: counted from their (user_id, id) index range.
          {
            sql: `select count(*)::int as count from simulation_sessions s where ${scoped.sql}`,
            params: scoped.params,
          };
    const filter = query.filter?.trim();
    if (filter) {
      const pattern = `%${escapeLike(filter)}%`;
      const users = !searchUsers
        ? null
        : { organisationId: scope.kind === 'organisation' ? scope.organisationId : null };
      const matched = searchArms(await filterMatches(pattern, users));
      // A user arm counts without the scope's condition (see SearchArm.inScope); with one learner
      // asked for, every arm needs the narrowed scope.
      const search =
        learnerId === undefined
          ? matched
          : { ...matched, arms: matched.arms.map((arm) => ({ ...arm, inScope: false })) };
      const shifted = search.arms.map((arm) => shiftParams(arm.sql, scoped.params.length));
      const params = [...scoped.params, ...search.params];
      where =
        shifted.length === 0
          ? { sql: `${scoped.sql} and false`, params: scoped.params }
          : { sql: `${scoped.sql} and (${shifted.join(' or ')})`, params };
      count = searchCount(scoped, search);
    }
    // The page is read first and summarised afterwards, so evidence is only ever touched for
    // the (at most 100) rows shown, however many reports there are.
    const page = await pagedList<ListRow, Omit<LearnerReportRow, 'analysisStatusSummary'>>(
      q,
      // The filter is already part of `where`.
      { ...query, filter: undefined },
      {
        from: FROM,
        select: SELECT,
        where,
        sortable: SORTABLE,
        searchable: [],
        // pagedList sees no filter (it is in `where`), so this is the count it uses.
        unfilteredCount: count,
        defaultOrdering: '-id',
        tieBreaker: TIE_BREAKER,
        notNull: NOT_NULL,
        // Scope, filter and ordering only read simulation_sessions: the page's ids come from
        // one of its indexes, and only those rows are joined to their names.
        pageFrom: { from: 'simulation_sessions s', key: 's.id' },
        map: (row) => ({
          id: row.id,
          uuid: row.uuid,
          simulation: row.simulation,
          session: row.session,
          recorded: iso(row.recorded),
          hasReportDetails: row.has_report_details,
          user: row.user_name,
        }),
      },
    );
    const byUuid = await summaries(page.results.map((r) => r.uuid));
    return {
      ...page,
      results: page.results.map((r) => ({
        ...r,
        analysisStatusSummary: byUuid.get(r.uuid) ?? 'not_started',
      })),
    };
  }

  /**
   * A report's images (or the one `evidenceId`) with their marks, comments and overrides in one
   * statement (issue #24 point 5): as four, each held a pool connection for a turn of the busy
   * event loop, and every learner opens their report after a session. The nested rows come as
   * JSON through the same row mappers as the feedback and marking repositories' reads.
   */
  async function evidenceOf(
    uuid: string,
    owner: ReportRowRecord,
    evidenceId?: number,
  ): Promise<Evidence[]> {
    const res = await (evidenceId === undefined
      ? q.query<EvidenceDetailRecord>(EVIDENCE_OF_REPORT, [uuid])
      : q.query<EvidenceDetailRecord>(ONE_EVIDENCE_OF_REPORT, [uuid, evidenceId]));
    return res.rows.map((e) =>
      toEvidence(
        e,
        owner,
        e.marks?.map(toCriterionMark),
        e.comment === null ? null : toComment(e.comment),
        e.overrides?.map(toOverride) ?? [],
      ),
    );
  }

  function toEvidence(
    e: EvidenceRecord,
    owner: ReportRowRecord,
    criteria: CriterionMark[] | undefined,
    comment: FeedbackComment | null,
    overrides: MarkOverride[],
  ): Evidence {
    return {
      id: e.id,
      userName: `${owner.first_name} ${owner.last_name}`,
      userEmail: owner.email,
      practiceActivity: e.practice_activity,
      analysis: e.analysis,
      analysisStatus: e.analysis_status_id,
      evidenceData: e.evidence_data,
      hasImage: e.has_image,
      marks: criteria ? { score: e.score === null ? null : Number(e.score), criteria } : null,
      markingPending: e.marking_pending,
      feedback: comment,
      overrides,
    };
  }

  async function findRecord(uuid: string): Promise<ReportRowRecord | null> {
    const res = await q.query<ReportRowRecord>(FIND_RECORD_SQL, [uuid]);
    return res.rows[0] ?? null;
  }

  /**
   * The owner, anyone allowed to see every report, and — with view_org_reports — members of the
   * owner's organisation. Everyone else is told the report does not exist.
   */
  function canSee(viewer: ReportViewer, record: ReportRowRecord): boolean {
    if (record.user_id === viewer.id) return true;
    if (viewer.permissions.includes('global.view_all_reports')) return true;
    return (
      viewer.permissions.includes('global.view_org_reports') &&
      viewer.organisationId !== null &&
      viewer.organisationId === record.organisation_id
    );
  }

  /**
   * Grade release (issue #23 point 2) is an educator's review of a learner's work: someone who
   * sees the organisation's reports, of the learner's organisation, never the learner.
   */
  function mayReleaseGrade(viewer: ReportViewer, record: ReportRowRecord): boolean {
    return (
      record.user_id !== viewer.id &&
      viewer.permissions.includes('global.view_org_reports') &&
      viewer.organisationId !== null &&
      viewer.organisationId === record.organisation_id
    );
  }

  /**
   * Feedback (issue #23 point 3) is an educator's too, and a global administrator's: never the
   * learner's own.
   */
  function mayGiveFeedback(viewer: ReportViewer, record: ReportRowRecord): boolean {
    return (
      mayReleaseGrade(viewer, record) ||
      (record.user_id !== viewer.id && viewer.permissions.includes(GLOBAL_ADMIN_PERMISSION))
    );
  }

  return {
    /**
     * A report's session locked for an educator's feedback: `hidden` when it does not exist or
     * the viewer may not see it, `forbidden` when they see it but may not give feedback on it.
     */
    async lockForFeedback(
      uuid: string,
      viewer: ReportViewer,
    ): Promise<
      | 'hidden'
      | 'forbidden'
      | { organisationId: number | null; learnerId: string; learner: string; released: boolean }
    > {
      await q.query('select 1 from simulation_sessions where uuid = $1 for update', [uuid]);
      const record = await findRecord(uuid);
      if (!record || !canSee(viewer, record)) return 'hidden';
      if (!mayGiveFeedback(viewer, record)) return 'forbidden';
      return {
        organisationId: record.organisation_id,
        learnerId: record.user_id,
        learner: `${record.first_name} ${record.last_name}`,
        released: record.grade_released_at !== null,
      };
    },

    /**
     * A report's session locked for a grade release by the viewer: `hidden` when it does not
     * exist or they may not see it, `forbidden` when they see it but are not its learner's
     * educator.
     */
    async lockForRelease(
      uuid: string,
      viewer: ReportViewer,
    ): Promise<'hidden' | 'forbidden' | { organisationId: number | null; learner: string }> {
      await q.query('select 1 from simulation_sessions where uuid = $1 for update', [uuid]);
      const record = await findRecord(uuid);
      if (!record || !canSee(viewer, record)) return 'hidden';
      if (!mayReleaseGrade(viewer, record)) return 'forbidden';
      return {
        organisationId: record.organisation_id,
        learner: `${record.first_name} ${record.last_name}`,
      };
    },

    /** The caller's own reports (GET /report). */
    listOwn: (userId: string, query: PagedQuery): Promise<PagedResult<ReportRow>> =>
      list({ kind: 'own', userId }, query, false).then((page) => ({
        ...page,
        results: page.results.map(({ user: _user, ...row }) => row),
      })),

    /** Learner reports (GET /report/learner); the filter also matches the learner's name and e-mail. */
    listLearners: (
      scope: ReportScope,
      query: LearnerReportListQuery,
    ): Promise<PagedResult<LearnerReportRow>> => list(scope, query, true),

    /**
     * A report the viewer may see, with its evidence; null when it does not exist or is hidden
     * from them, so callers answer both with the same 404.
     */
    async findVisible(uuid: string, viewer: ReportViewer): Promise<Report | null> {
      const record = await findRecord(uuid);
      if (!record || !canSee(viewer, record)) return null;
      const evidence = await evidenceOf(uuid, record);
      const feedback = record.report_comment === null ? null : toComment(record.report_comment);
      const analysed = evidence.filter((e) => (ANALYSED as number[]).includes(e.analysisStatus));
      return {
        id: record.id,
        uuid: record.uuid,
        simulation: record.simulation,
        description: record.description,
        recorded: iso(record.recorded),
        mode: record.mode,
        userName: `${record.first_name} ${record.last_name}`,
        userEmail: record.email,
        isOwner: record.user_id === viewer.id,
        analysisStatusSummary: summarise(evidence.length, analysed.length),
        reportDetails: toReportDetails(record.report_details),
        grade: {
          score: record.score,
          reportedScore: record.reported_score,
          passMark: record.pass_mark,
          release:
            record.grade_released_at !== null
              ? 'released'
              : record.grade_pending_since !== null
                ? 'pending'
                : 'not_applicable',
          releasedAt: record.grade_released_at === null ? null : iso(record.grade_released_at),
          canRelease:
            record.grade_released_at === null &&
            record.grade_pending_since !== null &&
            record.score !== null &&
            mayReleaseGrade(viewer, record),
        },
        feedback,
        canGiveFeedback: mayGiveFeedback(viewer, record),
        evidence,
      };
    },

    /** Who owns a report the viewer may see; null when it does not exist or is hidden from them. */
    async ownerIfVisible(uuid: string, viewer: ReportViewer): Promise<{ userId: string } | null> {
      const record = await findRecord(uuid);
      return record && canSee(viewer, record) ? { userId: record.user_id } : null;
    },

    /** Stored images of the given evidence of one report; evidence without an image is left out. */
    async images(uuid: string, evidenceIds: readonly number[]): Promise<EvidenceImage[]> {
      if (evidenceIds.length === 0) return [];
      const res = await q.query<{ id: number; storage_key: string; mime_type: string }>(
        `select e.id, f.storage_key, f.mime_type
           from evidence e
           join files f on f.id = e.image_file_id
          where e.session_uuid = $1 and e.id = any($2::int[])
          order by e.position`,
        [uuid, evidenceIds],
      );
      return res.rows.map((r) => ({ id: r.id, storageKey: r.storage_key, mimeType: r.mime_type }));
    },

    /** Records the owner's analysis of one evidence item; null when the item is not in this report. */
    async saveAnalysis(
      uuid: string,
      evidenceId: number,
      body: AnalysisBody,
    ): Promise<Evidence | null> {
      const record = await findRecord(uuid);
      if (!record) return null;
      const res = await q.query(
        `update evidence
            set analysis_status_id = $3, analysis = $4, analysed_at = now()
          where session_uuid = $1 and id = $2
          returning id`,
        [uuid, evidenceId, body.analysisStatus, body.analysis],
      );
      if (res.rows.length === 0) return null;
      const [evidence] = await evidenceOf(uuid, record, evidenceId);
      return evidence ?? null;
    },
  };
}

export type ReportRepository = ReturnType<typeof createReportRepository>;
