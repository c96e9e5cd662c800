import type { LtiRosterSyncStatus } from '@portal/contract';
import type { Queryable } from '../db/driver';

/**
 * The roster sync's rows (migration 0026): courses, their members as the portal knows them, and
 * the syncs. The rules live in services/lti/roster-sync*.ts.
 */

/** A launch with its course, as starting a sync and the roster panel check it. */
export interface LaunchCourseRow {
  user_id: string;
  roles: string[];
  nrps_endpoint: Record<string, unknown> | null;
  age: number;
  course_id: number | null;
  memberships_url: string | null;
  title: string | null;
  last_synced_at: Date | string | null;
}

export interface SyncRow {
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
  course_id: number;
  organisation_id: number;
}

/** A sync's course with its platform registration, as the worker needs it. */
export interface SyncCourseRow {
  sync_id: string;
  requested_by: string | null;
  course_id: number;
  context_id: string;
  title: string | null;
  memberships_url: string | null;
  deployment_id: string;
  platform_id: number;
  deployment_ids: string[];
  issuer: string;
  client_id: string;
  access_token_url: string;
  auth_login_url: string;
  jwks_url: string;
  organisation_id: number;
  token_audience: string | null;
  verifies_email: boolean;
}

export interface SyncCounts {
  added: number;
  reactivated: number;
  deactivated: number;
  unchanged: number;
  refused: Array<{ name: string; reason: string }>;
}

const SYNC_SQL = `select s.id::text as id, s.status, s.added, s.reactivated, s.deactivated,
    s.unchanged, s.refused, s.error, s.created_at, s.finished_at,
    s.requested_by::text as requested_by, s.course_id, p.organisation_id
  from lti_roster_syncs s
  join lti_courses c on c.id = s.course_id
  join lti_platforms p on p.id = c.platform_id`;

export function createLtiRosterRepository(q: Queryable) {
  return {
    async launchCourse(launchId: string): Promise<LaunchCourseRow | null> {
      const res = await q.query<LaunchCourseRow>(
        `select l.user_id::text as user_id, l.roles, l.nrps_endpoint,
                extract(epoch from (now() - l.created_at))::float8 as age,
                c.id as course_id, c.memberships_url, c.title, c.last_synced_at
           from lti_launches l left join lti_courses c on c.id = l.course_id
          where l.id = $1::uuid`,
        [launchId],
      );
      return res.rows[0] ?? null;
    },

    /** The roles of the user's launches into the course of at most `maxAgeSeconds` ago. */
    async recentLaunchRoles(
      courseId: number,
      userId: string,
      maxAgeSeconds: number,
    ): Promise<string[][]> {
      const res = await q.query<{ roles: string[] }>(
        `select roles from lti_launches
          where course_id = $1 and user_id = $2::uuid
            and created_at > now() - make_interval(secs => $3)`,
        [courseId, userId, maxAgeSeconds],
      );
      return res.rows.map((r) => r.roles);
    },

    /** The course's sync still queued or running, under the course row's lock (one at a time). */
    async lockOpenSync(courseId: number): Promise<string | null> {
      await q.query('select 1 from lti_courses where id = $1 for update', [courseId]);
      const open = await q.query<{ id: string }>(
        `select id::text as id from lti_roster_syncs
          where course_id = $1 and status in ('queued', 'running')
          order by created_at limit 1`,
        [courseId],
      );
      return open.rows[0]?.id ?? null;
    },

    async insertSync(id: string, courseId: number, requestedBy: string | null): Promise<void> {
      await q.query(
        'insert into lti_roster_syncs (id, course_id, requested_by) values ($1, $2, $3)',
        [id, courseId, requestedBy],
      );
    },

    async sync(id: string): Promise<SyncRow | null> {
      const res = await q.query<SyncRow>(`${SYNC_SQL} where s.id = $1::uuid`, [id]);
      return res.rows[0] ?? null;
    },

    async latestSync(courseId: number): Promise<SyncRow | null> {
      const res = await q.query<SyncRow>(
        `${SYNC_SQL} where s.course_id = $1 order by s.created_at desc limit 1`,
        [courseId],
      );
      return res.rows[0] ?? null;
    },

    async activeLearners(courseId: number): Promise<number> {
      const res = await q.query<{ n: number }>(
        `select count(*)::int as n from lti_course_members
          where course_id = $1 and active and not educator`,
        [courseId],
      );
      return res.rows[0]!.n;
    },

    /** Courses with a roster that a launch came from since `since`. */
    async coursesLaunchedSince(since: Date): Promise<number[]> {
      const res = await q.query<{ id: number }>(
        `select id from lti_courses
          where memberships_url is not null and last_launch_at > $1::timestamptz
          order by id`,
        [since.toISOString()],
      );
      return res.rows.map((r) => r.id);
    },

    async syncCourse(syncId: string): Promise<SyncCourseRow | null> {
      const res = await q.query<SyncCourseRow>(
        `select s.id::text as sync_id, s.requested_by::text as requested_by, c.id as course_id,
                c.context_id, c.title, c.memberships_url, c.deployment_id, p.id as platform_id,
                p.deployment_ids, p.issuer, p.client_id, p.access_token_url, p.auth_login_url,
                p.jwks_url, p.organisation_id, p.token_audience, p.verifies_email
           from lti_roster_syncs s
           join lti_courses c on c.id = s.course_id
           join lti_platforms p on p.id = c.platform_id
          where s.id = $1::uuid`,
        [syncId],
      );
      return res.rows[0] ?? null;
    },

    async markRunning(syncId: string): Promise<void> {
      await q.query(
        `update lti_roster_syncs set status = 'running' where id = $1::uuid and status = 'queued'`,
        [syncId],
      );
    },

    async finishDone(syncId: string, c: SyncCounts): Promise<void> {
      await q.query(
        `update lti_roster_syncs
            set status = 'done', added = $2, reactivated = $3, deactivated = $4,
                unchanged = $5, refused = $6::jsonb, error = null, finished_at = now()
          where id = $1::uuid`,
        [syncId, c.added, c.reactivated, c.deactivated, c.unchanged, JSON.stringify(c.refused)],
      );
      await q.query(
        `update lti_courses set last_synced_at = now()
          where id = (select course_id from lti_roster_syncs where id = $1::uuid)`,
        [syncId],
      );
    },

    async finishFailed(syncId: string, error: string): Promise<void> {
      await q.query(
        `update lti_roster_syncs set status = 'failed', error = $2, finished_at = now()
          where id = $1::uuid`,
        [syncId, error.slice(0, 2000)],
      );
    },

    /**
     * The course a launch came from (registration + context id): created, or its title and
     * memberships URL refreshed when the launch names them, with when a launch last came.
     */
    async upsertLaunchCourse(course: {
      platformId: number;
      contextId: string;
      title: string | null;
      membershipsUrl: string | null;
      deploymentId: string;
    }): Promise<number> {
      const res = await q.query<{ id: number }>(
        `insert into lti_courses (platform_id, context_id, title, memberships_url, deployment_id)
         values ($1, $2, $3, $4, $5)
         on conflict (platform_id, context_id) do update
            set title = coalesce(excluded.title, lti_courses.title),
                memberships_url = coalesce(excluded.memberships_url, lti_courses.memberships_url),
                deployment_id = excluded.deployment_id,
                last_launch_at = now()
         returning id`,
        [
          course.platformId,
          course.contextId,
          course.title,
          course.membershipsUrl,
          course.deploymentId,
        ],
      );
      return res.rows[0]!.id;
    },

    /** The launch's NRPS claim and course, kept with the launch. */
    async setLaunchCourse(
      launchId: string,
      nrpsEndpoint: Record<string, unknown> | null,
      courseId: number | null,
    ): Promise<void> {
      await q.query(
        'update lti_launches set nrps_endpoint = $2::jsonb, course_id = $3 where id = $1::uuid',
        [launchId, nrpsEndpoint ? JSON.stringify(nrpsEndpoint) : null, courseId],
      );
    },

    /** Whether the user was a member of the course before (null: never). */
    async memberActive(courseId: number, userId: string): Promise<boolean | null> {
      const res = await q.query<{ active: boolean }>(
        'select active from lti_course_members where course_id = $1 and user_id = $2',
        [courseId, userId],
      );
      return res.rows[0]?.active ?? null;
    },

    /** The user is an active member (a launch into the course, or the roster, says so). */
    async upsertMember(courseId: number, userId: string, sub: string, educator: boolean) {
      await q.query(
        `insert into lti_course_members (course_id, user_id, platform_sub, educator)
         values ($1, $2, $3, $4)
         on conflict (course_id, user_id) do update
            set platform_sub = excluded.platform_sub, educator = excluded.educator,
                active = true, updated_at = now()`,
        [courseId, userId, sub, educator],
      );
    },

    /** Marks an active member gone; false when they were not an active member. */
    async deactivateMember(courseId: number, userId: string): Promise<boolean> {
      const res = await q.query(
        `update lti_course_members set active = false, updated_at = now()
          where course_id = $1 and user_id = $2 and active`,
        [courseId, userId],
      );
      return res.rowCount > 0;
    },

    async activeMembers(courseId: number): Promise<Array<{ userId: string; sub: string }>> {
      const res = await q.query<{ user_id: string; platform_sub: string }>(
        `select user_id::text as user_id, platform_sub from lti_course_members
          where course_id = $1 and active`,
        [courseId],
      );
      return res.rows.map((r) => ({ userId: r.user_id, sub: r.platform_sub }));
    },

    async linkedUser(issuer: string, sub: string): Promise<string | null> {
      const res = await q.query<{ user_id: string }>(
        `select user_id::text as user_id from lti_user_links
          where issuer = $1 and platform_sub = $2`,
        [issuer, sub],
      );
      return res.rows[0]?.user_id ?? null;
    },

    /**
     * The seats (licence ids) of the organisation a member gone from `courseId` gives up: none
     * when their role is not one of `roles` or another course of the organisation still has them.
     */
    async seatsToFree(
      userId: string,
      organisationId: number,
      courseId: number,
      roles: readonly string[],
    ): Promise<number[]> {
      const res = await q.query<{ id: number }>(
        `select s.license_block_id as id
           from license_block_users s
           join license_blocks lb on lb.id = s.license_block_id
           join users u on u.id = s.user_id
           join roles r on r.id = u.role_id
          where s.user_id = $1 and lb.organisation_id = $2 and u.organisation_id = $2
            and r.name = any($4::text[])
            and not exists (
              select 1 from lti_course_members m
                join lti_courses c on c.id = m.course_id
                join lti_platforms p on p.id = c.platform_id
               where m.user_id = u.id and m.active and m.course_id <> $3
                 and p.organisation_id = $2)
          order by s.license_block_id`,
        [userId, organisationId, courseId, roles],
      );
      return res.rows.map((r) => r.id);
    },

    async actor(userId: string) {
      const res = await q.query<{ first_name: string; last_name: string; email: string }>(
        'select first_name, last_name, email from users where id = $1',
        [userId],
      );
      const u = res.rows[0];
      return u
        ? { id: userId, firstName: u.first_name, lastName: u.last_name, email: u.email }
        : null;
    },
  };
}

export type LtiRosterRepository = ReturnType<typeof createLtiRosterRepository>;
