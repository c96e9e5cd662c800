import type { App } from '../../../../../src/app';
import type { Queryable } from '../../../../../src/db/driver';
import { LTI_CLAIM, NRPS_CLAIM } from '../../../../../src/lti/validate-launch';
import { account, authHeader, xsrfHeaders, type TestApp } from '../../../../helper';
import { ltiLaunch, registerPlatform } from '../../../../lti/lti-fixtures';
import {
  createTestPlatform,
  ROLES,
  serveJwks,
  type TestPlatform,
} from '../../../../lti/platform-fixtures';
import type { Fixture } from '../../../../security/suite-shapes';

/**
 * The NRPS claim of a test platform's course (nothing answers there: a sync fails, later), with
 * the course's context when it is not the launches' default one (course-1).
 */
export const nrpsClaim = (issuer: string, course = 'course-1') => ({
  [NRPS_CLAIM]: {
    context_memberships_url: `${issuer}/nrps/contexts/${course}/memberships`,
    service_versions: ['2.0'],
  },
  ...(course === 'course-1' ? {} : { [`${LTI_CLAIM}context`]: { id: course, title: course } }),
});

const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');

/** An instructor's launch into the course, with the NRPS claim; answers the launchId. */
export async function rosterLaunch(
  app: App,
  platform: TestPlatform,
  as: { sub: string; email: string } = { sub: 'lms-roster-teacher', email: 'educator@demo.test' },
  course?: string,
): Promise<string> {
  const to = await ltiLaunch(app, platform, {
    sub: as.sub,
    email: as.email,
    roles: [ROLES.instructor],
    claims: nrpsClaim(platform.issuer, course),
  });
  if (to.pathname !== '/lti/launch') throw new Error(`launch went to ${to.toString()}`);
  return to.searchParams.get('launchId')!;
}

/** A Demo Hospital platform with the NRPS course, made once per suite. */
export function rosterPlatform(t: () => { db: Queryable }, issuer: string, clientId: string) {
  let setup: Promise<TestPlatform> | null = null;
  return () =>
    (setup ??= (async () => {
      const platform = await createTestPlatform(issuer, clientId);
      const jwks = await serveJwks(() => [platform.publicJwk]);
      await registerPlatform(t().db, platform, jwks.url, 'Demo Hospital');
      return platform;
    })());
}

/** Starts a sync as `sub` with a fresh launch of theirs; answers its id. */
export async function startedSync(
  app: App,
  platform: TestPlatform,
  sub: string,
  as?: { sub: string; email: string },
  course?: string,
): Promise<string> {
  const launchId = await rosterLaunch(app, platform, as, course);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/lti/roster-sync',
    headers: { ...(await authHeader(sub)), ...xsrfHeaders() },
    payload: { launchId },
  });
  if (res.statusCode !== 202) throw new Error(`roster sync: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

/**
 * The roster sync and course grade release routes for the auth matrix (api/test/security): the
 * Demo Hospital educator's own launch and sync; the org admin, who holds the permission, must not start a sync with the
 * educator's launch nor read its summary, and the educator must not read the org admin's sync.
 */
export function rosterSyncFixtures(app: () => TestApp): Record<string, Fixture> {
  const platform = rosterPlatform(app, 'https://matrix-roster.test', 'roster-client');
  const launch = async () => rosterLaunch(app().app, await platform());
  const adminAs = { sub: 'lms-roster-admin', email: 'orgadmin@demo.test' };

  return {
    'POST /api/v1/lti/roster-sync': {
      actor: educator,
      build: async () => ({
        url: '/api/v1/lti/roster-sync',
        payload: { launchId: await launch() },
      }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "the Demo Hospital educator's launch",
          req: { url: '/api/v1/lti/roster-sync', payload: { launchId: await launch() } },
        },
      ],
    },
    'GET /api/v1/lti/roster-sync/:id': {
      actor: educator,
      build: async () => ({
        url: `/api/v1/lti/roster-sync/${await startedSync(app().app, await platform(), educator.sub)}`,
      }),
      foreign: async () => [
        {
          as: educator,
          // Of a course the educator never taught: its instructors of the last day may follow
          // any sync of their course (a second "Sync now" joins the open one).
          what: "a sync the organisation's admin started in another course",
          req: {
            url: `/api/v1/lti/roster-sync/${await startedSync(app().app, await platform(), orgAdmin.sub, adminAs, 'course-2')}`,
          },
        },
      ],
    },
    // The course's own grade release, beside the roster on the launch page: scoped the same way.
    'GET /api/v1/lti/course-grade-release/:launchId': {
      actor: educator,
      build: async () => ({ url: `/api/v1/lti/course-grade-release/${await launch()}` }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "the Demo Hospital educator's launch",
          req: { url: `/api/v1/lti/course-grade-release/${await launch()}` },
        },
      ],
    },
    'PUT /api/v1/lti/course-grade-release': {
      actor: educator,
      build: async () => ({
        url: '/api/v1/lti/course-grade-release',
        payload: { launchId: await launch(), gradeRelease: 'after_review' },
      }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "the Demo Hospital educator's launch",
          req: {
            url: '/api/v1/lti/course-grade-release',
            payload: { launchId: await launch(), gradeRelease: 'automatic' },
          },
        },
      ],
    },
    'GET /api/v1/lti/roster-sync/launch/:launchId': {
      actor: educator,
      build: async () => ({ url: `/api/v1/lti/roster-sync/launch/${await launch()}` }),
      foreign: async () => [
        {
          as: orgAdmin,
          what: "the Demo Hospital educator's launch",
          req: { url: `/api/v1/lti/roster-sync/launch/${await launch()}` },
        },
      ],
    },
  };
}
