import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BrightspaceAuthStart, BrightspaceAuthStartResponse } from '@portal/contract';
import { safeRedirectPath } from '../../../../brightspace/oauth';
import { notFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { BRIGHTSPACE_STATE_TTL_SECONDS } from '../../../../repositories/brightspace-repository';
import { startBrightspaceSignIn } from '../../../../services/brightspace/brightspace-sign-in-state';
import { resetBrightspaceLink } from '../../../../services/brightspace/reset-brightspace-link';
import { BRIGHTSPACE_COOKIE_PATH, brightspaceCookieName } from '../../../../brightspace/oauth';

const tags = ['user'];

/**
 * The signed-in user's side of Brightspace (issue #10 point 6). Both act on the caller only
 * (object scope: self), so every registered user may call them.
 */
export const brightspaceUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/brightspace-auth',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        summary: 'Starts the Brightspace sign-in: a one-time URL for a full-page navigation',
        body: BrightspaceAuthStart,
        response: { 200: BrightspaceAuthStartResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!app.config.brightspace) throw notFound();
      const redirectPath = safeRedirectPath(request.body.redirectPath);
      const { state, browserSecret } = await startBrightspaceSignIn(
        app,
        currentUser(request).id,
        redirectPath,
      );
      reply.setCookie(brightspaceCookieName(state), browserSecret, {
        path: BRIGHTSPACE_COOKIE_PATH,
        httpOnly: true,
        // Lax: Brightspace's redirect to the callback is a top-level GET, which carries it.
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: BRIGHTSPACE_STATE_TTL_SECONDS,
      });
      const query = new URLSearchParams({ redirect_path: redirectPath, state });
      return { url: `${BRIGHTSPACE_COOKIE_PATH}?${query}` };
    },
  );

  app.post(
    '/brightspace-auth-reset',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        summary: "Forgets the caller's Brightspace user (ends a mismatch; sign in again after)",
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      await resetBrightspaceLink(app, currentUser(request).id);
      return reply.code(204).send();
    },
  );
};

export default brightspaceUserRoutes;
