import { account, type TestApp } from '../../../../helper';
import { ltiLaunch } from '../../../../lti/lti-fixtures';
import type { Fixture } from '../../../../security/suite-shapes';
import { rosterPlatform } from './roster-sync-fixtures';

const learner = account('learner', 'Demo Hospital');

/**
 * The launch page's mismatch check for the auth matrix (api/test/security): any signed-in user may
 * ask about any launch (the answer for someone else's is only "not mine"; the route test checks
 * that nothing more is told), so there is no foreign object to refuse.
 */
export function launchOwnerFixtures(app: () => TestApp): Record<string, Fixture> {
  const platform = rosterPlatform(app, 'https://matrix-owner.test', 'owner-client');
  return {
    'GET /api/v1/lti/launch/:launchId/owner': {
      actor: learner,
      build: async () => {
        const to = await ltiLaunch(app().app, await platform(), {
          sub: 'lms-owner-learner',
          email: learner.email,
        });
        return { url: `/api/v1/lti/launch/${to.searchParams.get('launchId')}/owner` };
      },
    },
  };
}
