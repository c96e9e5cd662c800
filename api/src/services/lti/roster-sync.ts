import { randomUUID } from 'node:crypto';
import {
  LTI_ROSTER_LAUNCH_MAX_AGE_SECONDS,
  LTI_ROSTER_MESSAGES,
  type LtiRosterSummary,
  type LtiRosterSync,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/driver';
import { ApiError, badRequest, notFound } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import { membershipsUrlOf } from '../../lti/nrps-course';
import { portalRoleFor } from '../../lti/validate-launch';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import { createLtiRosterRepository, type SyncRow } from '../../repositories/lti-roster-repository';
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

/** Why an instructor's launch cannot serve: the messages of the feature that asks. */
export interface InstructorLaunchMessages {
  launchExpired: string;
  notInstructor: string;
}

/**
 * The caller's own launch of at most a day ago, by an instructor or administrator. Someone else's
 * launch is as unknown as one that never was (404), as a session start treats it.
 */
export async function ownInstructorLaunch(
  q: Queryable,
  user: AuthUser,
  launchId: string,
  messages: InstructorLaunchMessages,
) {
  const row = await createLtiRosterRepository(q).launchCourse(launchId);
  if (!row || row.user_id.toLowerCase() !== user.id.toLowerCase()) throw notFound();
  if (Number(row.age) > LTI_ROSTER_LAUNCH_MAX_AGE_SECONDS) {
    throw badRequest({ launchId: [messages.launchExpired] });
  }
  if (portalRoleFor(row.roles) !== 'educator') {
    throw new ApiError(403, { launchId: [messages.notInstructor] });
  }
  return row;
}

/** The caller's own recent instructor launch whose course offers NRPS 2.0. */
async function instructorLaunch(q: Queryable, user: AuthUser, launchId: string) {
  const row = await ownInstructorLaunch(q, user, launchId, LTI_ROSTER_MESSAGES);
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
  const rosters = createLtiRosterRepository(q);
  // One sync per course at a time: the course row's lock orders two requests racing here.
  const open = await rosters.lockOpenSync(courseId);
  if (open !== null) return { id: open, created: false };
  const id = randomUUID();
  await rosters.insertSync(id, courseId, requestedBy);
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

/**
 * GET /api/v1/lti/roster-sync/{id}: for the instructor who started it, the course's other instructors
 * of the last day, or the organisation's administrators.
 */
export async function rosterSyncOf(
  q: Queryable,
  user: AuthUser,
  id: string,
): Promise<LtiRosterSync> {
  const rosters = createLtiRosterRepository(q);
  const row = await rosters.sync(id);
  if (!row) throw notFound();
  const mine = row.requested_by?.toLowerCase() === user.id.toLowerCase();
  if (mine || administers(user, row.organisation_id)) return toSync(row);
  // A second instructor who asks while the first one's sync still runs is answered that sync's id
  // (one sync per course at a time), so whoever could start a sync of the course may follow it.
  const roles = await rosters.recentLaunchRoles(
    row.course_id,
    user.id,
    LTI_ROSTER_LAUNCH_MAX_AGE_SECONDS,
  );
  if (!roles.some((r) => portalRoleFor(r) === 'educator')) throw notFound();
  return toSync(row);
}

/** GET /api/v1/lti/roster-sync/launch/{launchId}: the roster panel of the launch page. */
export async function rosterSummary(
  q: Queryable,
  user: AuthUser,
  launchId: string,
): Promise<LtiRosterSummary> {
  const launch = await instructorLaunch(q, user, launchId);
  const rosters = createLtiRosterRepository(q);
  const last = await rosters.latestSync(launch.course_id);
  return {
    courseTitle: launch.title,
    learners: await rosters.activeLearners(launch.course_id),
    lastSyncedAt:
      launch.last_synced_at === null ? null : new Date(launch.last_synced_at).toISOString(),
    lastSync: last ? toSync(last) : null,
  };
}
