import { randomUUID } from 'node:crypto';
import {
  LTI_ROSTER_LAUNCH_MAX_AGE_SECONDS,
  LTI_ROSTER_MESSAGES,
  type LtiRosterSummary,
  type LtiRosterSync,
  type LtiRosterSyncStatus,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/driver';
import { ApiError, badRequest, notFound } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import { membershipsUrlOf } from '../../lti/nrps-course';
import { portalRoleFor } from '../../lti/validate-launch';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import type { AuthUser } from '../../repositories/user-repository';
import { runUnitOfWork } from '../unit-of-work';

/**
 * The roster sync's API side (issue #22 point 4): an instructor starts a sync of their recent
 * launch's course, it and whoever administers the course's organisation follow it. The sync
 * itself is an outbox item (kind LTI_ROSTER_SYNC_KIND, roster-sync-run.ts).
 */
export const LTI_ROSTER_SYNC_KIND = 'lti.roster-sync';

/** What an `lti.roster-sync` item carries. */
export interface RosterSyncPayload {
  syncId: string;
}

export interface RosterSyncDeps {
  db: Db;
  outboxWorker: { kick(): void };
}

interface LaunchCourseRow {
  user_id: string;
  roles: string[];
  nrps_endpoint: Record<string, unknown> | null;
  age: number;
  course_id: number | null;
  memberships_url: string | null;
  title: string | null;
  last_synced_at: Date | string | null;
}

/**
 * The caller's own launch of at most a day ago, by an instructor or administrator, whose course
 * offers NRPS 2.0. Someone else's launch is as unknown as one that never was (404), as a session
 * start treats it.
 */
async function instructorLaunch(q: Queryable, user: AuthUser, launchId: string) {
  const res = await q.query<LaunchCourseRow>(
    `select l.user_id::text as user_id, l.roles, l.nrps_endpoint,
            extract(epoch from (now() - l.created_at))::float8 as age,
            c.id as course_id, c.memberships_url, c.title, c.last_synced_at
       from lti_launches l left join lti_courses c on c.id = l.course_id
      where l.id = $1::uuid`,
    [launchId],
  );
  const row = res.rows[0];
  if (!row || row.user_id.toLowerCase() !== user.id.toLowerCase()) throw notFound();
  if (Number(row.age) > LTI_ROSTER_LAUNCH_MAX_AGE_SECONDS) {
    throw badRequest({ launchId: [LTI_ROSTER_MESSAGES.launchExpired] });
  }
  if (portalRoleFor(row.roles) !== 'educator') {
    throw new ApiError(403, { launchId: [LTI_ROSTER_MESSAGES.notInstructor] });
  }
  if (row.course_id === null || !membershipsUrlOf(row.nrps_endpoint) || !row.memberships_url) {
    throw badRequest({ launchId: [LTI_ROSTER_MESSAGES.noRosterService] });
  }
  return { ...row, course_id: row.course_id };
}

/**
 * A queued sync of the course for `requestedBy` (null: the daily job), with its outbox item, in
 * `q`'s transaction; a sync of the course still waiting or running is answered instead.
 */
export async function enqueueRosterSync(
  q: Queryable,
  courseId: number,
  requestedBy: string | null,
): Promise<{ id: string; created: boolean }> {
  // One sync per course at a time: the course row's lock orders two requests racing here.
  await q.query('select 1 from lti_courses where id = $1 for update', [courseId]);
  const open = await q.query<{ id: string }>(
    `select id::text as id from lti_roster_syncs
      where course_id = $1 and status in ('queued', 'running')
      order by created_at limit 1`,
    [courseId],
  );
  if (open.rows[0]) return { id: open.rows[0].id, created: false };
  const id = randomUUID();
  await q.query(
    'insert into lti_roster_syncs (id, course_id, requested_by) values ($1, $2, $3)',
    [id, courseId, requestedBy],
  );
  const payload: RosterSyncPayload = { syncId: id };
  await createOutboxRepository(q).enqueue([
    {
      kind: LTI_ROSTER_SYNC_KIND,
      key: `lti-roster:${courseId}`,
      payload: payload as unknown as Record<string, unknown>,
    },
  ]);
  return { id, created: true };
}

/** POST /api/v1/lti/roster-sync: answers the sync's id (202). */
export async function startRosterSync(
  deps: RosterSyncDeps,
  user: AuthUser,
  launchId: string,
): Promise<{ id: string }> {
  return runUnitOfWork(deps.db, async (uow) => {
    const launch = await instructorLaunch(uow.q, user, launchId);
    const sync = await enqueueRosterSync(uow.q, launch.course_id, user.id);
    if (sync.created) {
      uow.afterCommit(() => deps.outboxWorker.kick());
    }
    return { id: sync.id };
  });
}

interface SyncRow {
  id: string;
  status: LtiRosterSyncStatus;
  added: number;
  reactivated: number;
  deactivated: number;
  unchanged: number;
  refused: Array<{ name: string; reason: string }>;
  error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
  requested_by: string | null;
  organisation_id: number;
}

const SYNC_SQL = `select s.id::text as id, s.status, s.added, s.reactivated, s.deactivated,
    s.unchanged, s.refused, s.error, s.created_at, s.finished_at,
    s.requested_by::text as requested_by, p.organisation_id
  from lti_roster_syncs s
  join lti_courses c on c.id = s.course_id
  join lti_platforms p on p.id = c.platform_id`;

const toSync = (r: SyncRow): LtiRosterSync => ({
  id: r.id,
  status: r.status,
  added: r.added,
  reactivated: r.reactivated,
  deactivated: r.deactivated,
  unchanged: r.unchanged,
  refused: r.refused,
  ...(r.error === null ? {} : { error: r.error }),
  createdAt: new Date(r.created_at).toISOString(),
  finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
});

/** An administrator of users (org admin, global admin) of the organisation, not an educator. */
const administers = (user: AuthUser, organisationId: number) =>
  user.permissions.includes('global.update_user') &&
  (isGlobalAdmin(user) || user.organisationId === organisationId);

/** GET /api/v1/lti/roster-sync/{id}: for the instructor who started it or the organisation's administrators. */
export async function rosterSyncOf(q: Queryable, user: AuthUser, id: string): Promise<LtiRosterSync> {
  const res = await q.query<SyncRow>(`${SYNC_SQL} where s.id = $1::uuid`, [id]);
  const row = res.rows[0];
  const mine = row?.requested_by?.toLowerCase() === user.id.toLowerCase();
  if (!row || !(mine || administers(user, row.organisation_id))) throw notFound();
  return toSync(row);
}

/** GET /api/v1/lti/roster-sync/launch/{launchId}: the roster panel of the launch page. */
export async function rosterSummary(
  q: Queryable,
  user: AuthUser,
  launchId: string,
): Promise<LtiRosterSummary> {
  const launch = await instructorLaunch(q, user, launchId);
  const learners = await q.query<{ n: number }>(
    `select count(*)::int as n from lti_course_members
      where course_id = $1 and active and not educator`,
    [launch.course_id],
  );
  const last = await q.query<SyncRow>(
    `${SYNC_SQL} where s.course_id = $1 order by s.created_at desc limit 1`,
    [launch.course_id],
  );
  return {
    courseTitle: launch.title,
    learners: learners.rows[0]!.n,
    lastSyncedAt:
      launch.last_synced_at === null ? null : new Date(launch.last_synced_at).toISOString(),
    lastSync: last.rows[0] ? toSync(last.rows[0]) : null,
  };
}
