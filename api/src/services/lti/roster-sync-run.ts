import type { Db, Queryable } from '../../db/driver';
import type { OutboundClient } from '../../lib/outbound-http';
import { fetchMemberships, type NrpsMember } from '../../lti/nrps-members';
import { linkPlatformUser } from '../../lti/platform-user';
import {
  createPlatformTokens,
  PLATFORM_ROW_SQL,
  PlatformCallError,
  type PlatformRow,
} from '../../lti/platform-token';
import type { ToolKeys } from '../../lti/tool-keys';
import { portalRoleFor } from '../../lti/validate-launch';
import type { OutboxHandler, OutboxKind, OutboxLog } from '../../outbox/handler-registry';
import {
  type AuditActor,
  SYSTEM_ACTOR,
  createAuditRepository,
} from '../../repositories/audit-repository';
import { createLicenseRepository } from '../../repositories/license-repository';
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

interface CourseRow extends PlatformRow {
  sync_id: string;
  requested_by: string | null;
  course_id: number;
  context_id: string;
  title: string | null;
  memberships_url: string | null;
  deployment_id: string;
  platform_id: number;
  deployment_ids: string[];
}

interface Counts {
  added: number;
  reactivated: number;
  deactivated: number;
  unchanged: number;
  refused: Array<{ name: string; reason: string }>;
}

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

  async function courseOf(syncId: string): Promise<CourseRow | null> {
    const res = await db.query<CourseRow>(
      `select s.id::text as sync_id, s.requested_by::text as requested_by, c.id as course_id,
              c.context_id, c.title, c.memberships_url, c.deployment_id, p.id as platform_id,
              p.deployment_ids, ${PLATFORM_ROW_SQL}
         from lti_roster_syncs s
         join lti_courses c on c.id = s.course_id
         join lti_platforms p on p.id = c.platform_id
        where s.id = $1::uuid`,
      [syncId],
    );
    return res.rows[0] ?? null;
  }

  async function actorOf(userId: string | null): Promise<AuditActor> {
    if (userId === null) return SYSTEM_ACTOR;
    const res = await db.query<{ first_name: string; last_name: string; email: string }>(
      'select first_name, last_name, email from users where id = $1',
      [userId],
    );
    const u = res.rows[0];
    return u ? { id: userId, firstName: u.first_name, lastName: u.last_name, email: u.email } : SYSTEM_ACTOR;
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
        const before = await uow.q.query<{ active: boolean }>(
          'select active from lti_course_members where course_id = $1 and user_id = $2',
          [course.course_id, linked.userId],
        );
        await uow.q.query(
          `insert into lti_course_members (course_id, user_id, platform_sub, educator)
           values ($1, $2, $3, $4)
           on conflict (course_id, user_id) do update
              set platform_sub = excluded.platform_sub, educator = excluded.educator,
                  active = true, updated_at = now()`,
          [course.course_id, linked.userId, m.userId, portalRoleFor(m.roles) === 'educator'],
        );
        uow.afterCommit(() => options.forgetUser?.(linked.userId));
        if (linked.created) return 'added' as const;
        return before.rows[0]?.active === false ? ('reactivated' as const) : ('unchanged' as const);
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
      const marked = await q.query(
        `update lti_course_members set active = false, updated_at = now()
          where course_id = $1 and user_id = $2 and active`,
        [course.course_id, userId],
      );
      if (marked.rowCount === 0) return false;
      const seats = await seatsToFree(q, course, userId, actor.id);
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

  async function seatsToFree(
    q: Queryable,
    course: CourseRow,
    userId: string,
    requester: string | null,
  ): Promise<number[]> {
    if (requester !== null && requester.toLowerCase() === userId.toLowerCase()) return [];
    const keeps = await q.query(
      `select 1 from users u join roles r on r.id = u.role_id
        where u.id = $1 and u.organisation_id = $2 and r.name = any($3::text[])
          and not exists (
            select 1 from lti_course_members m
              join lti_courses c on c.id = m.course_id
              join lti_platforms p on p.id = c.platform_id
             where m.user_id = u.id and m.active and m.course_id <> $4
               and p.organisation_id = $2)`,
      [userId, course.organisation_id, LAUNCH_ROLES, course.course_id],
    );
    if (keeps.rowCount === 0) return [];
    const held = await q.query<{ id: number }>(
      `select s.license_block_id as id from license_block_users s
         join license_blocks lb on lb.id = s.license_block_id
        where s.user_id = $1 and lb.organisation_id = $2 order by s.license_block_id`,
      [userId, course.organisation_id],
    );
    return held.rows.map((r) => r.id);
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
      const linked = await db.query<{ user_id: string }>(
        `select k.user_id::text as user_id from lti_user_links k
          where k.issuer = $1 and k.platform_sub = $2`,
        [course.issuer, m.userId],
      );
      const userId = linked.rows[0]?.user_id;
      const gone =
        userId !== undefined &&
        (await letGo(course, userId, `${m.status} in the learning platform's course`, actor));
      counts[gone ? 'deactivated' : 'unchanged']++;
    }
    // Known members the roster no longer names have left the course.
    const known = await db.query<{ user_id: string; platform_sub: string }>(
      `select user_id::text as user_id, platform_sub from lti_course_members
        where course_id = $1 and active`,
      [course.course_id],
    );
    for (const row of known.rows) {
      if (present.has(row.platform_sub)) continue;
      if (await letGo(course, row.user_id, "no longer in the learning platform's course", actor)) {
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
      if ('counts' in outcome) {
        const c = outcome.counts;
        await tx.query(
          `update lti_roster_syncs
              set status = 'done', added = $2, reactivated = $3, deactivated = $4,
                  unchanged = $5, refused = $6::jsonb, error = null, finished_at = now()
            where id = $1::uuid`,
          [syncId, c.added, c.reactivated, c.deactivated, c.unchanged, JSON.stringify(c.refused)],
        );
        await tx.query(
          `update lti_courses set last_synced_at = now()
            where id = (select course_id from lti_roster_syncs where id = $1::uuid)`,
          [syncId],
        );
      } else {
        await tx.query(
          `update lti_roster_syncs set status = 'failed', error = $2, finished_at = now()
            where id = $1::uuid`,
          [syncId, outcome.error.slice(0, 2000)],
        );
      }
      await createOutboxRepository(tx).complete(
        item.id,
        {},
        'error' in outcome ? outcome.error.slice(0, 2000) : null,
      );
    });
  }

  return async (item: ClaimedItem) => {
    const { syncId } = item.payload as unknown as RosterSyncPayload;
    const course = await courseOf(syncId);
    if (!course) {
      // The course (or its registration) was removed meanwhile: nothing is left to sync.
      await createOutboxRepository(db).complete(item.id, {}, 'course removed');
      return;
    }
    await db.query(
      `update lti_roster_syncs set status = 'running' where id = $1::uuid and status = 'queued'`,
      [syncId],
    );
    try {
      const counts = await sync(course);
      await finish(item, syncId, { counts });
      log.info({ syncId, course: course.course_id, ...counts, refused: counts.refused.length }, 'roster synced');
    } catch (error) {
      const message = syncErrorOf(error);
      log.error({ syncId, course: course.course_id, err: error instanceof Error ? error.message : String(error) }, 'roster sync failed');
      await finish(item, syncId, { error: message });
    }
  };
}

/** The `lti.roster-sync` kind, for the outbox worker's registry. */
export function rosterSyncKinds(options: RosterSyncHandlerOptions): Record<string, OutboxKind> {
  return { [LTI_ROSTER_SYNC_KIND]: { handle: createRosterSyncHandler(options) } };
}
