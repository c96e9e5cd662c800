import { randomUUID } from 'node:crypto';
import {
  isUuid,
  type CloseSessionResult,
  type CompleteSessionBody,
  type SessionStatus,
  type SessionStatusValue,
  type SimulationMode,
  type SimulatorSession,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { prepared } from '../db/prepared';
import { statementBatches } from '../db/statement-batches';

/** What the session-token check knows about the session a simulator call belongs to. */
export interface TokenSession {
  uuid: string;
  userId: string;
  productId: number;
  status: SessionStatusValue;
  /** The learner's organisation is active (or they have none). Read on every call, not cached. */
  organisationActive: boolean;
}

export interface NewSession {
  userId: string;
  productId: number;
  categoryId: number | null;
  configuration: string;
  /** The configuration record the launch resolved to. */
  configurationId?: number | null;
  mode: SimulationMode;
  ltiLaunchId: string | null;
  tokenHash: string;
}

/** Which session of which learner a learner-side call addresses; any mismatch is "not found". */
export interface OwnedSessionKey {
  uuid: string;
  userId: string;
  productId: number;
}

/** The statuses of owned sessions, in the keys' order (a missing one has no row). */
const OWNED_STATUSES_SQL = prepared(
  `select k.i::int as i, s.status
     from unnest($1::uuid[], $2::uuid[], $3::int[]) with ordinality as k(uuid, user_id, product_id, i)
     join simulation_sessions s
       on s.uuid = k.uuid and s.user_id = k.user_id and s.product_id = k.product_id`,
);

const INT4_MAX = 2 ** 31 - 1;

/**
 * The launch screen's polls that miss the status cache, many in one statement
 * (statement-batches.ts): the status of each owned session, null when there is none. One
 * process's loads share this; the statement runs on `q` (the polled reads' connections).
 */
export function createSessionStatusLoads(
  q: Queryable,
): (key: OwnedSessionKey) => Promise<SessionStatusValue | null> {
  const load = statementBatches<OwnedSessionKey, SessionStatusValue | null>(async (keys) => {
    const { rows } = await q.query<{ i: number; status: SessionStatusValue }>(OWNED_STATUSES_SQL, [
      keys.map((k) => k.uuid),
      keys.map((k) => k.userId),
      keys.map((k) => k.productId),
    ]);
    const statuses = keys.map((): SessionStatusValue | null => null);
    for (const row of rows) statuses[row.i - 1] = row.status;
    return statuses;
  });
  // A key no row can match must not fail the others' statement with a cast error.
  return (key) =>
    isUuid(key.uuid) &&
    isUuid(key.userId) &&
    Number.isInteger(key.productId) &&
    Math.abs(key.productId) <= INT4_MAX
      ? load(key)
      : Promise.resolve(null);
}

/** A state change that did not happen: no such session, or it is in the wrong state. */
export type Transition<T> =
  { ok: true; value: T } | { ok: false; status: SessionStatusValue | null };

interface SimulatorSessionRow {
  uuid: string;
  status: SessionStatusValue;
  mode: SimulationMode;
  configuration: string;
  product_id: number;
  product_code: string;
  product_name: string;
  category_name: string | null;
  first_name: string;
  last_name: string;
  evidence_count: number;
}

/** How long a session token lives (config SESSION_TOKEN_*). */
export interface TokenLifetime {
  maxAgeSeconds: number;
  idleSeconds: number;
}

/** `closed`: abandoned launches closed to make room (their cached statuses are stale). */
export type CreateResult =
  | { ok: true; uuid: string; closed: string[] }
  | { ok: false; reason: 'open_sessions'; closed: string[] };

/**
 * The condition of a session whose token still works, with the lifetime in parameters `$a`, `$b`.
 * Both sides are the database's clock, so every API process agrees on what expired. Migration
 * 0046's `create_session` counts open sessions with this same condition (p_max_age, p_idle): a
 * change here must be made there too.
 */
const live = (a: number, b: number) =>
  `created_at > now() - $${a}::integer * interval '1 second'
   and last_used_at > now() - $${b}::integer * interval '1 second'`;

/**
 * A session still not joined this long after its creation counts as an abandoned launch when its
 * learner reaches the open-session quota. The launch screen itself gives up after 30 s
 * (LAUNCH_TIMEOUT_MS); ten minutes leaves room for a slow VR headset to start.
 */
export const ABANDONED_LAUNCH_SECONDS = 600;

/**
 * Every call runs on `q`: the pool, or the transaction of a unit of work. `completeBySimulator`
 * needs a transaction (a row lock, and a completion with its grade); `create` is one statement
 * and needs none.
 * Every status change answers the uuids it changed, so the caller can drop cached statuses after
 * commit.
 */
export function createSessionRepository(q: Queryable) {
  async function ownedStatus(key: OwnedSessionKey): Promise<SessionStatusValue | null> {
    const res = await q.query<{ status: SessionStatusValue }>(
      prepared(
        'select status from simulation_sessions where uuid = $1 and user_id = $2 and product_id = $3',
      ),
      [key.uuid, key.userId, key.productId],
    );
    return res.rows[0]?.status ?? null;
  }

  async function currentStatus(uuid: string): Promise<SessionStatusValue | null> {
    const res = await q.query<{ status: SessionStatusValue }>(
      'select status from simulation_sessions where uuid = $1',
      [uuid],
    );
    return res.rows[0]?.status ?? null;
  }

  return {
    /**
     * Refused when the learner already holds `maxOpen` sessions whose tokens still work; at the
     * limit, their abandoned launches (ABANDONED_LAUNCH_SECONDS) are closed first and counted
     * again. One statement (migration 0046's `create_session`, its own transaction): the user's
     * row is locked for the count and the insert, so concurrent launches cannot overshoot, and
     * nothing is written unless everything is. Its count is `live(...)`'s condition.
     */
    async create(
      session: NewSession,
      limits: TokenLifetime & { maxOpen: number },
    ): Promise<CreateResult> {
      // Made here as before: the answer needs no read-back, and a test can make the insert fail.
      const uuid = randomUUID();
      const res = await q.query<{ outcome: string; new_uuid: string | null; closed: string[] }>(
        prepared(`select outcome, new_uuid, closed
          from create_session($1::uuid, $2::uuid, $3::integer, $4::integer, $5::text, $6::text,
                              $7::text, $8::text, $9::integer, $10::integer, $11::integer,
                              $12::integer, $13::integer)`),
        [
          uuid,
          session.userId,
          session.productId,
          session.categoryId,
          session.configuration,
          session.mode,
          session.ltiLaunchId,
          session.tokenHash,
          session.configurationId ?? null,
          limits.maxOpen,
          limits.maxAgeSeconds,
          limits.idleSeconds,
          ABANDONED_LAUNCH_SECONDS,
        ],
      );
      const row = res.rows[0];
      switch (row?.outcome) {
        case 'created':
          if (row.new_uuid !== uuid) throw new Error('create_session created another session');
          return { ok: true, uuid, closed: row.closed } as const;
        case 'open_sessions':
          return { ok: false, reason: 'open_sessions', closed: row.closed } as const;
        default:
          throw new Error(`create_session answered ${String(row?.outcome)}`);
      }
    },

    /** The learner ends a session the simulator never completed (e.g. it crashed). */
    async completeByOwner(key: OwnedSessionKey): Promise<Transition<SessionStatus>> {
      const res = await q.query<{ status: SessionStatusValue }>(
        `update simulation_sessions set status = 'complete', completed_at = now()
          where uuid = $1 and user_id = $2 and product_id = $3
            and status in ('not_started', 'in_progress')
          returning status`,
        [key.uuid, key.userId, key.productId],
      );
      const row = res.rows[0];
      if (row) return { ok: true, value: { uuid: key.uuid, status: row.status } };
      return { ok: false, status: await ownedStatus(key) };
    },

    /** Closing twice answers the same; the first close time is kept. */
    async close(key: OwnedSessionKey): Promise<CloseSessionResult | null> {
      const res = await q.query<{
        status: SessionStatusValue;
        has_report_details: boolean;
        has_submitted_evidence: boolean;
      }>(
        prepared(`update simulation_sessions s
            set status = 'closed', closed_at = coalesce(s.closed_at, now())
          where s.uuid = $1 and s.user_id = $2 and s.product_id = $3
          returning s.status, s.report_details is not null as has_report_details,
                    exists (select 1 from evidence e where e.session_uuid = s.uuid)
                      as has_submitted_evidence`),
        [key.uuid, key.userId, key.productId],
      );
      const row = res.rows[0];
      return row
        ? {
            hasReportDetails: row.has_report_details,
            hasSubmittedEvidence: row.has_submitted_evidence,
            status: row.status,
          }
        : null;
    },

    /**
     * The session of a token that is still alive, null for an unknown or expired one. A call
     * counts as activity: `last_used_at` moves on, though at most once a minute, so a busy
     * simulator does not write on every call and a refused call seldom writes at all.
     */
    async useToken(tokenHash: string, lifetime: TokenLifetime): Promise<TokenSession | null> {
      const res = await q.query<{
        uuid: string;
        user_id: string;
        product_id: number;
        status: SessionStatusValue;
        organisation_active: boolean | null;
      }>(
        prepared(`with hit as (
           select uuid, user_id, product_id, status, last_used_at from simulation_sessions
            where token_hash = $1 and ${live(2, 3)}),
         touched as (
           update simulation_sessions s set last_used_at = now() from hit
            where s.uuid = hit.uuid and hit.last_used_at < now() - interval '1 minute')
         select hit.uuid, hit.user_id, hit.product_id, hit.status,
                (select o.is_active from users u join organisations o on o.id = u.organisation_id
                  where u.id = hit.user_id) as organisation_active
           from hit`),
        [tokenHash, lifetime.maxAgeSeconds, lifetime.idleSeconds],
      );
      const row = res.rows[0];
      return row
        ? {
            uuid: row.uuid,
            userId: row.user_id,
            productId: row.product_id,
            status: row.status,
            organisationActive: row.organisation_active !== false,
          }
        : null;
    },

    /**
     * Closes open sessions whose tokens expired; answers their uuids. One statement, so several
     * API processes running it together close each session once and never block each other long.
     */
    async closeExpired(lifetime: TokenLifetime): Promise<string[]> {
      const res = await q.query<{ uuid: string }>(
        `update simulation_sessions set status = 'closed', closed_at = coalesce(closed_at, now())
          where status in ('not_started', 'in_progress') and not (${live(1, 2)})
          returning uuid`,
        [lifetime.maxAgeSeconds, lifetime.idleSeconds],
      );
      const uuids = res.rows.map((r) => r.uuid);
      return uuids;
    },

    /**
     * The simulator starts (or, after a restart, resumes) the session. Joining again keeps the
     * first start time.
     */
    async join(uuid: string): Promise<Transition<SimulatorSession>> {
      const res = await q.query<SimulatorSessionRow>(
        prepared(`with joined as (
           update simulation_sessions
              set status = 'in_progress', started_at = coalesce(started_at, now())
            where uuid = $1 and status in ('not_started', 'in_progress')
            returning uuid, status, mode, configuration, product_id, category_id, user_id)
         select j.uuid, j.status, j.mode, j.configuration,
                p.id as product_id, p.code as product_code, p.name as product_name,
                c.display_name as category_name, u.first_name, u.last_name,
                (select count(*)::int from evidence e where e.session_uuid = j.uuid)
                  as evidence_count
           from joined j
           join products p on p.id = j.product_id
           join users u on u.id = j.user_id
           left join product_categories c on c.id = j.category_id`),
        [uuid],
      );
      const row = res.rows[0];
      if (!row) return { ok: false, status: await currentStatus(uuid) };
      return {
        ok: true,
        value: {
          uuid: row.uuid,
          status: row.status,
          mode: row.mode,
          configuration: row.configuration,
          product: { id: row.product_id, code: row.product_code, name: row.product_name },
          categoryName: row.category_name,
          learner: { firstName: row.first_name, lastName: row.last_name },
          evidenceCount: row.evidence_count,
        },
      };
    },

    /**
     * The simulator's completion, with the report details it sends. `fromLaunch`: the session
     * came from an LTI launch, so its grade may have to go back to the platform.
     */
    async completeBySimulator(
      uuid: string,
      reportDetails: CompleteSessionBody['reportDetails'],
    ): Promise<Transition<SessionStatus & { fromLaunch: boolean }>> {
      const res = await q.query<{ status: SessionStatusValue; lti: boolean }>(
        prepared(`update simulation_sessions
            set status = 'complete', completed_at = now(), report_details = $2::jsonb,
                reported_score = $3
          where uuid = $1 and status = 'in_progress'
          returning status, lti_launch_id is not null as lti`),
        // The simulator's score is kept as reported, never as the session's score (issue #23).
        [
          uuid,
          reportDetails == null ? null : JSON.stringify(reportDetails),
          reportDetails?.score ?? null,
        ],
      );
      const row = res.rows[0];
      if (row) return { ok: true, value: { uuid, status: row.status, fromLaunch: row.lti } };
      return { ok: false, status: await currentStatus(uuid) };
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
