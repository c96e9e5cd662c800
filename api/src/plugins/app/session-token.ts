import fp from 'fastify-plugin';
import {
  ORGANISATION_DEACTIVATED,
  ORGANISATION_DEACTIVATED_DETAIL,
  SESSION_TOKEN_SCHEME,
} from '@portal/contract';
import { ApiError, detailError, unauthorized } from '../../lib/http-errors';
import { hashSessionToken, sessionTokenFrom } from '../../lib/session-token';
import type { TokenSession } from '../../repositories/session-repository';
import { accessOf } from './access';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `sessionToken` routes: the open session whose token the simulator presented. */
    simulationSession: TokenSession | null;
  }
}

export const INVALID_SESSION_TOKEN = 'Invalid session token.';
export const SESSION_NOT_OPEN = 'The session is no longer open.';

/**
 * Simulator calls carry the session's token instead of a user's JWT: the simulator never holds
 * the learner's credentials, and a token is good for its one session only while it is open and
 * not expired (SESSION_TOKEN_MAX_AGE_SECONDS after creation, SESSION_TOKEN_IDLE_SECONDS after the
 * last call). An expired token is answered exactly like an unknown one.
 */
export const sessionTokenPlugin = fp(
  async (app) => {
    app.decorateRequest('simulationSession', null);
    const lifetime = {
      maxAgeSeconds: app.config.sessionTokenMaxAgeSeconds,
      idleSeconds: app.config.sessionTokenIdleSeconds,
    };

    app.addHook('onRequest', async (request, reply) => {
      if (request.is404 || accessOf(request.routeOptions.config) !== 'session') return;
      const token = sessionTokenFrom(request.headers.authorization);
      const session = token
        ? await app.repos.sessions.useToken(hashSessionToken(token), lifetime)
        : null;
      if (!session) {
        reply.header('www-authenticate', SESSION_TOKEN_SCHEME);
        throw unauthorized(INVALID_SESSION_TOKEN);
      }
      if (session.status === 'complete' || session.status === 'closed') {
        throw detailError(409, SESSION_NOT_OPEN);
      }
      // The learner's organisation was deactivated after the launch: the simulator may not go on
      // capturing or grading for it (the portal refuses its members the same way). The session
      // stays open and ends on its own clock, so a reactivation lets the simulator carry on.
      if (!session.organisationActive) {
        throw new ApiError(403, {
          detail: ORGANISATION_DEACTIVATED_DETAIL,
          code: ORGANISATION_DEACTIVATED,
        });
      }
      request.simulationSession = session;
    });
  },
  { name: 'session-token', dependencies: ['config', 'repositories', 'access'] },
);

/** The session of a `sessionToken` route (the hook guarantees one). */
export function currentSession(request: { simulationSession: TokenSession | null }): TokenSession {
  if (!request.simulationSession) {
    throw new Error('currentSession() called on a route without a session token');
  }
  return request.simulationSession;
}
