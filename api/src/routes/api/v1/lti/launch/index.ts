import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LtiLaunchOwner, LtiLaunchOwnerParams } from '@portal/contract';
import { errorResponses } from '../../../../../lib/route-schemas';
import { currentUser } from '../../../../../plugins/app/auth';

const tags = ['lti'];

/**
 * Whose launch this is (issue #22 point 1), asked by the launch page once signed in: a launch by
 * someone else than the portal user of this browser is the mismatch screen, never a silent
 * switch. Any signed-in user may ask about any launch id; the answer tells only yes or no, and
 * the caller's own name when it is theirs — another user's launch, an unknown one and a malformed
 * one are the same `mine: false`, so nothing about other users or launches leaks.
 */
const ltiLaunchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:launchId/owner',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        summary: "Whether the launch is the caller's own (the launch page's mismatch check)",
        params: LtiLaunchOwnerParams,
        response: { 200: LtiLaunchOwner, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const launch = await app.repos.lti.launchOwnerAndAge(request.params.launchId);
      const mine = launch !== null && launch.userId.toLowerCase() === user.id.toLowerCase();
      reply.header('cache-control', 'no-store');
      return mine
        ? { mine, launchedAs: { name: `${user.firstName} ${user.lastName}`.trim() } }
        : { mine, launchedAs: {} };
    },
  );
};

export default ltiLaunchRoutes;
