import type { Db, Queryable } from '../db/driver';
import type { OutboxHandler, OutboxKind, OutboxLog } from '../outbox/handler-registry';
import {
  createOutboxRepository,
  type ClaimedItem,
  type OutboxItem,
} from '../repositories/outbox-repository';
import { SYSTEM_ACTOR, createAuditRepository } from '../repositories/audit-repository';
import type { OutboundClient } from '../lib/outbound-http';
import {
  createPlatformTokens,
  PLATFORM_ROW_SQL,
  PlatformCallError,
  platformHosts,
  type PlatformCallErrorCode,
  type PlatformRow,
} from './platform-token';
import type { ToolKeys } from './tool-keys';
import { createFeedbackRepository } from '../repositories/feedback-repository';
import { scoreComment } from './score-comment';

export { retryAfterMs } from './platform-token';

/**
 * LTI Assignment and Grade Services 2.0 (issue #10 point 4): the score of a session launched from
 * a learning platform goes back to the launch's line item.
 *
 * What: the score the API computed from the session's marked images (issue #23,
 * api/src/marking/), never the one the simulator reports (`reported_score`: the session token
 * reaches the learner's browser, so that number is the learner's to choose). A session without
 * marked images has no score, and nothing is posted.
 *
 * When: the simulator's completion (`POST /api/v1/simulator/session/complete`) enqueues an
 * `lti.score` outbox item in its own transaction, so a completion without its grade, or a grade of
 * a rolled-back completion, cannot exist. Where the release policy (the course's override, else
 * the organisation's) is `after_review`, that item is a `PendingManual` result without a score,
 * and an educator's "Release grade" (services/reports/release-grade.ts) enqueues the
 * `FullyGraded` one. A learner's own "complete" (`POST …/session/{uuid}/complete`, after a
 * simulator crash) posts nothing.
 *
 * Then the outbox worker posts it (docs/decisions.md#outbox): OAuth2 client credentials with a JWT client
 * assertion signed by the tool key, then the score to `{lineitem}/scores`. Network errors, 5xx
 * and 429 (after its Retry-After) are retried with backoff; any other 4xx is final and recorded.
 * Each posted or refused grade is in the audit log (`lti_score`, actor System).
 *
 * Every call goes through the guarded outbound client (issue #20 point 4), and the AGS URLs
 * (container, line item, scores) must lie on a host of the platform's registration: the launch's
 * claim and the platform's answers name them, and neither may point the portal elsewhere.
 * Errors stored and audited name the step, a code and the HTTP status, never the answer's body.
 */
export const LTI_SCORE_KIND = 'lti.score';

export const AGS_SCOPES = {
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
} as const;

export const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
const LINE_ITEM_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
const LINE_ITEM_CONTAINER_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitemcontainer+json';

/** Report scores are percentages (contract: CompleteSessionBody, 0–100). */
export const DEFAULT_SCORE_MAXIMUM = 100;

/** What an `lti.score` item carries: all the completion knew, so a later edit changes nothing. */
export interface LtiScorePayload {
  sessionUuid: string;
  launchId: string;
  platformId: number;
  userId: string;
  /** The platform's id of the learner: the score's `userId`. */
  platformSub: string;
  /** The launch's line item; null when only the container was given (found or created then). */
  lineItem: string | null;
  lineItems: string | null;
  resourceLinkId: string | null;
  /** The label of a line item we create. */
  label: string;
  /** Percent, 0–100; null for a `PendingManual` result (awaiting an educator's release). */
  score: number | null;
  /** Absent in items enqueued before grade release existed: FullyGraded. */
  gradingProgress?: AgsGradingProgress;
  /** The completion time, ISO 8601 with milliseconds. */
  timestamp: string;
  comment: string | null;
}

export type AgsGradingProgress = 'FullyGraded' | 'PendingManual';

/** Steps done, in the item's `progress`: the line item found or created for the container. */
interface LtiScoreProgress {
  lineItem?: string;
  scoreMaximum?: number;
}

interface AgsClaim {
  scope?: unknown;
  lineitem?: unknown;
  lineitems?: unknown;
}

const isUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//.test(value);

/**
 * The `lti.score` item of a completed session, in `tx` (the completion's or the release's
 * transaction), when it was launched from a platform whose AGS claim lets us post scores there
 * and it has a computed score. `grading` `PendingManual` sends the result without a score (the
 * grade waits for an educator); `FullyGraded` sends the score and records the release. Answers
 * whether an item was written.
 *
 * The key holds the platform, the line item (or the container and resource link) and the user, so
 * the grades of one learner on one line item go out in completion order even across launches.
 */
export async function enqueueLtiScore(
  tx: Queryable,
  sessionUuid: string,
  grading: AgsGradingProgress = 'FullyGraded',
  options: {
    /**
     * A released grade sent again because an educator's feedback changed it (issue #23 point
     * 3): stamped now, so the platform takes it over the result it holds.
     */
    resend?: boolean;
  } = {},
): Promise<boolean> {
  const res = await tx.query<{
    lti_launch_id: string;
    user_id: string;
    completed_at: Date | string;
    score: number | null;
    released_at: Date | string | null;
    now: Date | string;
    platform_id: number;
    platform_sub: string;
    ags_endpoint: AgsClaim | null;
    resource_link: { id?: unknown; title?: unknown } | null;
    product_name: string;
    category_name: string | null;
  }>(
    `select s.lti_launch_id, s.user_id::text as user_id, s.completed_at,
            s.score, s.grade_released_at as released_at, clock_timestamp() as now, l.platform_id, l.platform_sub, l.ags_endpoint, l.resource_link,
            p.name as product_name, c.display_name as category_name
       from simulation_sessions s
       -- The column predates launches as rows (text); only checked uuids are stored in it now.
       join lti_launches l
         on l.id = case when s.lti_launch_id ~* '^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$'
                        then s.lti_launch_id::uuid end
       join products p on p.id = s.product_id
       left join product_categories c on c.id = s.category_id
      -- Completed, whether or not the launch page has closed it since (status 'closed' then).
      where s.uuid = $1 and s.completed_at is not null`,
    [sessionUuid],
  );
  const row = res.rows[0];
  const score = row?.score;
  if (!row || typeof score !== 'number' || !Number.isFinite(score)) return false;
  const claim = row.ags_endpoint ?? {};
  const scopes = Array.isArray(claim.scope) ? claim.scope : [];
  if (!scopes.includes(AGS_SCOPES.score)) return false;
  const lineItem = isUrl(claim.lineitem) ? claim.lineitem : null;
  const lineItems = isUrl(claim.lineitems) ? claim.lineitems : null;
  const resourceLinkId = typeof row.resource_link?.id === 'string' ? row.resource_link.id : null;
  // Without a line item we may only find or create one in the container for the resource link.
  if (!lineItem && !(lineItems && resourceLinkId && scopes.includes(AGS_SCOPES.lineItem))) {
    return false;
  }
  const feedback = await createFeedbackRepository(tx).commentTexts(sessionUuid);
  const payload: LtiScorePayload = {
    sessionUuid,
    launchId: row.lti_launch_id,
    platformId: row.platform_id,
    userId: row.user_id,
    platformSub: row.platform_sub,
    lineItem,
    lineItems,
    resourceLinkId,
    label:
      (typeof row.resource_link?.title === 'string' && row.resource_link.title.trim()) ||
      [row.product_name, row.category_name].filter(Boolean).join(' – '),
    score: grading === 'FullyGraded' ? score : null,
    gradingProgress: grading,
    // A released grade must be newer than the pending result the platform holds (AGS 2.0
    // §3.4.7 keeps the newer of two), so it carries the release time.
    timestamp: new Date(
      options.resend
        ? row.now
        : grading === 'FullyGraded' && row.released_at !== null
          ? row.released_at
          : row.completed_at,
    ).toISOString(),
    comment: scoreComment(feedback),
  };
  const target = lineItem ?? `${lineItems}#${resourceLinkId}`;
  const item: OutboxItem = {
    kind: LTI_SCORE_KIND,
    key: `lti-score:${row.platform_id}:${hashOf(target)}:${row.user_id}`,
    payload: payload as unknown as Record<string, unknown>,
  };
  await createOutboxRepository(tx).enqueue([item]);
  return true;
}

/** A short stable digest, so a long line item URL keeps the key within its 200 characters. */
function hashOf(text: string): string {
  // FNV-1a 64 bit: the key only has to group one learner's grades of one line item.
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/**
 * Temporary failures (network, 5xx, 408, 429) are retried this often, with the worker's backoff
 * (2 s doubling to at most 15 minutes between tries: about a day in all), before the grade is
 * given up and recorded as failed like a refused one. Without a cap an item would retry for ever
 * and hold back every later grade of the same learner and line item (same outbox key).
 */
export const LTI_SCORE_MAX_ATTEMPTS = 100;

/** Why a grade could not be posted (the shared platform call codes, platform-token.ts). */
export type AgsErrorCode = PlatformCallErrorCode;
/** A failed AGS call; the same as any platform service call's. */
export const AgsCallError = PlatformCallError;
export type AgsCallError = PlatformCallError;

export interface LtiScoreHandlerOptions {
  db: Db;
  toolKeys: ToolKeys;
  log: OutboxLog;
  /** The guarded client every platform call goes through. */
  outbound: OutboundClient;
}

/** The `lti.score` handler of the outbox worker. Keeps each platform's tokens until near expiry. */
export function createLtiScoreHandler(options: LtiScoreHandlerOptions): OutboxHandler & {
  /** Tokens fetched so far (for tests: reuse and refresh are observable). */
  tokensFetched: () => number;
} {
  const { db, log } = options;
  const { call, withToken, tokensFetched } = createPlatformTokens(options);

  /** The resource link's line item in the container, created when there is none. */
  async function findOrCreateLineItem(
    platform: PlatformRow,
    payload: LtiScorePayload,
  ): Promise<{ lineItem: string; scoreMaximum: number }> {
    const scopes = [AGS_SCOPES.score, AGS_SCOPES.lineItem];
    const allowedHosts = platformHosts(platform);
    const container = payload.lineItems as string;
    const query = new URL(container);
    query.searchParams.set('resource_link_id', payload.resourceLinkId as string);
    const found = await withToken(platform, scopes, 'line items', (token) =>
      call(
        query.toString(),
        {
          headers: { authorization: `Bearer ${token}`, accept: LINE_ITEM_CONTAINER_MEDIA_TYPE },
          allowedHosts,
        },
        'line items',
      ),
    );
    const items = found.json();
    const existing = (Array.isArray(items) ? items : []).find(
      (i: { id?: unknown; resourceLinkId?: unknown }) =>
        isUrl(i?.id) && (i.resourceLinkId ?? payload.resourceLinkId) === payload.resourceLinkId,
    ) as { id: string; scoreMaximum?: unknown } | undefined;
    const chosen =
      existing ??
      ((
        await withToken(platform, scopes, 'create line item', (token) =>
          call(
            container,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${token}`,
                'content-type': LINE_ITEM_MEDIA_TYPE,
                accept: LINE_ITEM_MEDIA_TYPE,
              },
              body: JSON.stringify({
                scoreMaximum: DEFAULT_SCORE_MAXIMUM,
                label: payload.label,
                resourceLinkId: payload.resourceLinkId,
              }),
              allowedHosts,
            },
            'create line item',
          ),
        )
      ).json() as { id?: unknown; scoreMaximum?: unknown } | undefined);
    if (!chosen || !isUrl(chosen.id)) {
      throw new AgsCallError('line item', 'INVALID_ANSWER', null, true);
    }
    const max = chosen.scoreMaximum;
    return {
      lineItem: chosen.id,
      scoreMaximum: typeof max === 'number' && max > 0 ? max : DEFAULT_SCORE_MAXIMUM,
    };
  }

  /** `{lineitem}/scores`, keeping the line item URL's query (Moodle's carry one). */
  function scoresUrl(lineItem: string): string {
    const url = new URL(lineItem);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
    return url.toString();
  }

  async function finish(
    item: ClaimedItem,
    payload: LtiScorePayload,
    platform: PlatformRow | null,
    outcome: { progress: LtiScoreProgress; error: AgsCallError | null; score?: object },
  ) {
    await db.transaction(async (tx) => {
      const user = await tx.query<{ name: string; email: string; organisation_id: number }>(
        `select trim(first_name || ' ' || last_name) as name, email, organisation_id
           from users where id = $1`,
        [payload.userId],
      );
      const learner = user.rows[0];
      await createAuditRepository(tx).record({
        actor: SYSTEM_ACTOR,
        action: outcome.error ? 'post_failed' : 'post',
        entityType: 'lti_score',
        entityId: payload.sessionUuid,
        organisationId: platform?.organisation_id ?? learner?.organisation_id ?? null,
        after: {
          learner: learner?.name ?? null,
          email: learner?.email ?? null,
          platform: platform?.issuer ?? null,
          lineItem: outcome.progress.lineItem ?? payload.lineItem,
          ...outcome.score,
          ...(outcome.error
            ? {
                httpStatus: outcome.error.status,
                errorCode: outcome.error.code,
                error: outcome.error.message,
              }
            : {}),
        },
      });
      await createOutboxRepository(tx).complete(
        item.id,
        { ...outcome.progress },
        outcome.error?.message.slice(0, 2000) ?? null,
      );
    });
  }

  async function handle(item: ClaimedItem): Promise<void> {
    const payload = item.payload as unknown as LtiScorePayload;
    let progress = { ...item.progress } as LtiScoreProgress;
    const platformRes = await db.query<PlatformRow>(
      `select ${PLATFORM_ROW_SQL} from lti_platforms p where p.id = $1`,
      [payload.platformId],
    );
    const platform = platformRes.rows[0] ?? null;
    try {
      if (!platform) {
        throw new AgsCallError('platform', 'PLATFORM_REMOVED', null, true);
      }
      if (!progress.lineItem) {
        if (payload.lineItem) {
          // A launch's own line item: its maximum is the platform's business; AGS scales
          // scoreGiven/scoreMaximum to it, so the percentage goes out as is.
          progress = { lineItem: payload.lineItem, scoreMaximum: DEFAULT_SCORE_MAXIMUM };
        } else {
          progress = await findOrCreateLineItem(platform, payload);
          // Kept at once: a retry posts to this line item instead of looking (or creating) again.
          await createOutboxRepository(db).saveProgress(item.id, { ...progress });
        }
      }
      const scoreMaximum = progress.scoreMaximum ?? DEFAULT_SCORE_MAXIMUM;
      const score = {
        userId: payload.platformSub,
        ...(payload.score === null
          ? {}
          : { scoreGiven: Math.round(payload.score * scoreMaximum) / 100, scoreMaximum }),
        ...(payload.comment ? { comment: payload.comment } : {}),
        activityProgress: 'Completed',
        gradingProgress: payload.gradingProgress ?? 'FullyGraded',
        timestamp: payload.timestamp,
      };
      // Posting the same score again (a crash between the platform's 2xx and marking the item
      // done) is harmless: a line item holds one result per user, and a score with the same
      // timestamp as the one the platform holds leaves that result as it is (AGS 2.0 §3.4.7).
      const scopes = payload.lineItem
        ? [AGS_SCOPES.score]
        : [AGS_SCOPES.score, AGS_SCOPES.lineItem];
      await withToken(platform, scopes, 'post score', (token) =>
        call(
          scoresUrl(progress.lineItem as string),
          {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': SCORE_MEDIA_TYPE },
            body: JSON.stringify(score),
            allowedHosts: platformHosts(platform),
          },
          'post score',
        ),
      );
      await finish(item, payload, platform, {
        progress,
        error: null,
        score: {
          scoreGiven: score.scoreGiven ?? null,
          scoreMaximum,
          gradingProgress: score.gradingProgress,
          timestamp: payload.timestamp,
        },
      });
      log.info(
        { outboxId: item.id, session: payload.sessionUuid, lineItem: progress.lineItem },
        'grade posted to the learning platform',
      );
    } catch (error) {
      const refused = error instanceof AgsCallError && error.permanent;
      if (!refused && item.attempts < LTI_SCORE_MAX_ATTEMPTS) throw error;
      const final = refused
        ? error
        : error instanceof AgsCallError
          ? new AgsCallError(
              `${error.step}, given up after ${item.attempts} attempts`,
              error.code,
              error.status,
              true,
            )
          : new AgsCallError(`given up after ${item.attempts} attempts`, 'GAVE_UP', null, true);
      log.error(
        {
          outboxId: item.id,
          session: payload.sessionUuid,
          status: final.status,
          attempts: item.attempts,
          err: final.message,
        },
        refused
          ? 'the learning platform refused the grade; not retried'
          : 'the learning platform stayed unreachable; the grade is given up',
      );
      await finish(item, payload, platform, {
        progress,
        error: final,
        score: { scoreGiven: payload.score, scoreMaximum: DEFAULT_SCORE_MAXIMUM },
      });
    }
  }

  return Object.assign(handle, { tokensFetched });
}

/** The `lti.score` kind, for the outbox worker's registry. */
export function ltiScoreKinds(options: LtiScoreHandlerOptions): Record<string, OutboxKind> {
  return { [LTI_SCORE_KIND]: { handle: createLtiScoreHandler(options) } };
}
