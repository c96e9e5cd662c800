import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LmsContext } from './context';

/** What the LTI Advantage services (AGS, NRPS) answer while the test outage switch is on. */
export const serviceDown = (reply: FastifyReply, what = 'The learning platform is down (test outage).') =>
  reply.code(503).header('retry-after', '1').send({ error: 'temporarily_unavailable', error_description: what });

/**
 * The request's bearer token must be one of our token endpoint's and carry one of `anyOf`:
 * 401 `invalid_token` without a live token, 403 `insufficient_scope` without the scope
 * (RFC 6750 §3.1). Answers false after replying.
 */
export function authorised(ctx: LmsContext, request: FastifyRequest, reply: FastifyReply, anyOf: string[]): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const grant = match ? ctx.store.accessTokens.get(match[1]) : null;
  if (!grant) {
    void reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({ error: 'invalid_token' });
    return false;
  }
  if (!grant.scopes.some((s) => anyOf.includes(s))) {
    void reply.code(403).header('www-authenticate', 'Bearer error="insufficient_scope"').send({ error: 'insufficient_scope' });
    return false;
  }
  return true;
}
