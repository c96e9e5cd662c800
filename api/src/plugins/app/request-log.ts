import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { logRequests } from '@portal/service-kit';

/**
 * Who made the request, as far as the API knows once it has answered: the signed-in user (auth
 * plugin) or the learner whose simulation session token was presented (session-token plugin),
 * and the user's organisation. Public routes and refused tokens have neither.
 */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  if (request.user) return { userId: request.user.id, organisationId: request.user.organisationId };
  if (request.simulationSession) return { userId: request.simulationSession.userId };
  return {};
}

/**
 * The portal's request log (service-kit): one line per answer with its request id (the host's,
 * passed in X-Request-Id), user and organisation; /healthz at debug. Registered first, so its
 * hooks run for every route.
 */
export const requestLogPlugin = fp(
  async (app) => {
    logRequests<FastifyRequest>(app, { fields: requestLogFields });
  },
  { name: 'request-log' },
);
