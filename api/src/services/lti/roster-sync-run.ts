import type { Db } from '../../db/driver';
import type { OutboundClient } from '../../lib/outbound-http';
import { fetchMemberships, type NrpsMember } from '../../lti/nrps-members';
import { linkPlatformUser } from '../../lti/platform-user';
import { createPlatformTokens, PlatformCallError } from '../../lti/platform-token';
import type { ToolKeys } from '../../lti/tool-keys';
import { portalRoleFor } from '../../lti/validate-launch';
import type { OutboxHandler, OutboxKind, OutboxLog } from '../../outbox/handler-registry';
import {
  type AuditActor,
  SYSTEM_ACTOR,
  createAuditRepository,
} from '../../repositories/audit-repository';
import { createLicenseRepository } from '../../repositories/license-repository';
import {
  createLtiRosterRepository,
  type SyncCounts,
  type SyncCourseRow,
} from '../../repositories/lti-roster-repository';
import type { ValidLaunch } from '../../repositories/lti-types';
import { createOutboxRepository, type ClaimedItem } from '../../repositories/outbox-repository';
import { runUnitOfWork } from '../unit-of-work';
import { LTI_ROSTER_SYNC_KIND, type RosterSyncPayload } from './roster-sync';

/**
 * One roster sync (issue #22 point 4), as the outbox worker does it: read every member of the
 * course from the platform first — a refused token, a platform down or a broken answer fails the
 * sync with nothing changed — then each member in a unit of work of its own, so a member is either
 * wholly brought in or not at all:
 *
 * - an active member becomes (or stays) a portal user exactly as their launch would make them:
 *   `linkPlatformUser` with the member's claims, the same seat rules; its refusal (no seat, no
 *   e-mail for a new user …) is listed with its reason, and nothing of that member stays;
 * - a member who is `Inactive` or `Deleted`, or a known member of the course absent from the
 *   roster, is marked gone from the course, and their seats of the organisation's licences are
 *   freed (audited, as an administrator's "free seat" is) unless another course still has them
 *   active. The portal has no deactivated users: without a seat the user holds no product, and
 *   their reports stay. Only users a launch could have made (learners, educators) lose seats; an
 *   administrator's account, or the instructor who started the sync, is left alone.
 *
 * Not retried: a failed sync says why, and the instructor (or tomorrow's daily run) starts another.
 */

export interface RosterSyncHandlerOptions {
  db: Db;
  toolKeys: ToolKeys;
  log: OutboxLog;
  outbound: OutboundClient;
  /** After a member's user changed (seat taken or freed): drop them from the auth cache. */
  forgetUser?: (userId: string) => void;
  /** After users were created: their identity accounts go out through the outbox. */
  kick?: () => void;
  now?: () => Date;
}

type CourseRow = SyncCourseRow;
type Counts = SyncCounts;

/** Roles a launch can create users with; other users (administrators) keep their seats. */
const LAUNCH_ROLES = ['learner', 'educator'];

/** How a member is named in the refused list: as the platform names them, else by its id. */
export function memberName(m: NrpsMember): string {
  const full = [m.givenName, m.familyName].filter(Boolean).join(' ');
  return m.name ?? (full || null) ?? m.email ?? `user ${m.userId}`;
}

/** A clear sentence for a failed sync, with the step's code and HTTP status. */
export function syncErrorOf(error: unknown): string {
  if (!(error instanceof PlatformCallError)) return 'The roster sync stopped on an internal error.';
  const detail = `(${error.message})`;
  if (error.step === 'access token' && error.code === 'HTTP_STATUS' && error.status! < 500) {
    return `The learning platform refused an access token for the roster ${detail}.`;
  }
  if (error.status !== null && error.status >= 500) {
    return `The learning platform is not available ${detail}.`;
  }
  if (error.code.startsWith('OUTBOUND_') || error.code === 'REDIRECT_REFUSED') {
    return `The roster address is not one the portal may call ${detail}.`;
  }
  if (error.code === 'HTTP_STATUS') {
    return `The learning platform refused the roster ${detail}.`;
  }
  if (error.code === 'INVALID_ANSWER') {
    return `The learning platform's roster answer was not a roster ${detail}.`;
  }
  return `The learning platform could not be reached ${detail}.`;
}

export function createRosterSyncHandler(options: RosterSyncHandlerOptions): OutboxHandler {
  const { db, log } = options;
  const tokens = createPlatformTokens(options);
  const now = options.now ?? (() => new Date());

  const rosters = createLtiRosterRepository(db);

  async function actorOf(userId: string | null): Promise<AuditActor> {
    return (userId === null ? null : await rosters.actor(userId)) ?? SYSTEM_ACTOR;
  }

  /** The member as the launch check would have given them: their claims, this course's context. */
  function launchOf(course: CourseRow, m: NrpsMember): ValidLaunch {
    return {
      platform: {
        id: course.platform_id,
        issuer: course.issuer,
        clientId: course.client_id,
        deploymentIds: course.deployment_ids,
        organisationId: course.organisation_id,
        // A member is linked to an existing account by e-mail only as their launch would be.
        verifiesEmail: course.verifies_email,
      },
      deploymentId: course.deployment_id,
      messageType: 'LtiResourceLinkRequest',
      sub: m.userId,
      roles: m.roles,
      context: { id: course.context_id, ...(course.title ? { title: course.title } : {}) },
      resourceLink: null,
      agsEndpoint: null,
      deepLinkingSettings: null,
      custom: {},
      brightspaceUserId: null,
      email: m.email,
      givenName: m.givenName,
      familyName: m.familyName,
      name: m.name,
    };
  }

  class MemberRefused extends Error {
    constructor(readonly reason: string) {
      super(reason);
    }
  }

  /** An active member: linked (and seated) as a launch would, or refused with nothing left behind. */
  async function bringIn(course: CourseRow, m: NrpsMember, counts: Counts, today: Date) {
    try {
      const outcome = await runUnitOfWork(db, async (uow) => {
        const linked = await linkPlatformUser(uow.q, launchOf(course, m), today);
        if (!linked.ok) throw new MemberRefused(linked.reason);
        const members = createLtiRosterRepository(uow.q);
        const before = await members.memberActive(course.course_id, linked.userId);
        await members.upsertMember(
          course.course_id,
          linked.userId,
          m.userId,
          portalRoleFor(m.roles) === 'educator',
        );
        uow.afterCommit(() => options.forgetUser?.(linked.userId));
        if (linked.created) return 'added' as const;
        return before === false ? ('reactivated' as const) : ('unchanged' as const);
      });
      counts[outcome]++;
    } catch (error) {
      if (!(error instanceof MemberRefused)) throw error;
      counts.refused.push({ name: memberName(m), reason: error.reason });
    }
  }

  /**
   * A member gone from the course: marked so, and their seats freed unless another active course
   * membership in the organisation still needs them. False when they were not an active member.
   */
  async function letGo(
    course: CourseRow,
    userId: string,
    why: string,
    actor: AuditActor,
  ): Promise<boolean> {
    return runUnitOfWork(db, async (uow) => {
      const q = uow.q;
      const members = createLtiRosterRepository(q);
      if (!(await members.deactivateMember(course.course_id, userId))) return false;
      // The instructor who started the sync keeps their seat whatever the roster says.
      const self = actor.id !== null && actor.id.toLowerCase() === userId.toLowerCase();
      const seats = self
        ? []
        : await members.seatsToFree(userId, course.organisation_id, course.course_id, LAUNCH_ROLES);
      for (const licenseBlockId of seats) {
        await createLicenseRepository(q).unassignUser({
          licenseBlockId,
          userId,
          organisationId: course.organisation_id,
          actor,
        });
      }
      await createAuditRepository(q).record({
        actor,
        action: 'update',
        entityType: 'user',
        entityId: userId,
        organisationId: course.organisation_id,
        before: { ltiCourse: course.title ?? course.context_id, courseMember: true },
        after: {
          ltiCourse: course.title ?? course.context_id,
          courseMember: false,
          reason: why,
          seatsFreed: seats,
        },
      });
      uow.afterCommit(() => options.forgetUser?.(userId));
      return true;
    });
  }

  async function sync(course: CourseRow): Promise<Counts> {
    if (!course.memberships_url) {
      throw new PlatformCallError('memberships', 'INVALID_ANSWER', null, true);
    }
    const members = await fetchMemberships(tokens, course, course.memberships_url);
    const counts: Counts = { added: 0, reactivated: 0, deactivated: 0, unchanged: 0, refused: [] };
    const actor = await actorOf(course.requested_by);
    const today = now();
    const present = new Set<string>();
    for (const m of members) {
      if (m.status === 'Active') {
        present.add(m.userId);
        await bringIn(course, m, counts, today);
        continue;
      }
      const userId = await rosters.linkedUser(course.issuer, m.userId);
      const gone =
        userId !== null &&
        (await letGo(course, userId, `${m.status} in the learning platform's course`, actor));
      counts[gone ? 'deactivated' : 'unchanged']++;
    }
    // Known members the roster no longer names have left the course.
    for (const member of await rosters.activeMembers(course.course_id)) {
      if (present.has(member.sub)) continue;
      if (
        await letGo(course, member.userId, "no longer in the learning platform's course", actor)
      ) {
        counts.deactivated++;
      }
    }
    if (counts.added > 0) options.kick?.();
    return counts;
  }

  async function finish(
    item: ClaimedItem,
    syncId: string,
    outcome: { counts: Counts } | { error: string },
  ) {
    await db.transaction(async (tx) => {
      const syncs = createLtiRosterRepository(tx);
      if ('counts' in outcome) await syncs.finishDone(syncId, outcome.counts);
      else await syncs.finishFailed(syncId, outcome.error);
      await createOutboxRepository(tx).complete(
        item.id,
        {},
        'error' in outcome ? outcome.error.slice(0, 2000) : null,
      );
    });
  }

  return async (item: ClaimedItem) => {
    const { syncId } = item.payload as unknown as RosterSyncPayload;
    const course = await rosters.syncCourse(syncId);
    if (!course) {
      // The course (or its registration) was removed meanwhile: nothing is left to sync.
      await createOutboxRepository(db).complete(item.id, {}, 'course removed');
      return;
    }
    await rosters.markRunning(syncId);
    try {
      const counts = await sync(course);
      await finish(item, syncId, { counts });
      log.info(
        { syncId, course: course.course_id, ...counts, refused: counts.refused.length },
        'roster synced',
      );
    } catch (error) {
      const message = syncErrorOf(error);
      log.error(
        {
          syncId,
          course: course.course_id,
          err: error instanceof Error ? error.message : String(error),
        },
        'roster sync failed',
      );
      await finish(item, syncId, { error: message });
    }
  };
}

/** The `lti.roster-sync` kind, for the outbox worker's registry. */
export function rosterSyncKinds(options: RosterSyncHandlerOptions): Record<string, OutboxKind> {
  return { [LTI_ROSTER_SYNC_KIND]: { handle: createRosterSyncHandler(options) } };
}
