import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';

import type { IdentityContext } from '../../context';
import { formOf } from '../../http/forms';
import { allowOnly } from '../../http/methods';
import { ACCESS_TOKEN_AUDIENCE, userClaims } from '../../oidc/keycloak-claims';
import { ROUTES } from '../../oidc/provider';
import { publicJwks } from '../../oidc/signing-keys';

class InvalidToken extends Error {}

function corsHeaders(request: FastifyRequest, frontendOrigins: string[]): Record<string, string> {
  const { origin } = request.headers;
  if (!origin || !frontendOrigins.includes(origin)) return { Vary: 'Origin' };
  return { Vary: 'Origin', 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'WWW-Authenticate' };
}

function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const [scheme, value] = header.split(' ');
    return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
  }
  if (request.method === 'POST') return formOf(request).get('access_token') ?? undefined;
  return undefined;
}

/**
 * oidc-provider refuses access tokens that carry an audience at its userinfo endpoint, but
 * Keycloak's tokens (audience `account`) work at userinfo and the portal relies on that. So this
 * endpoint verifies our own JWT access tokens with jose and answers like Keycloak, including
 * refusing tokens whose session has ended.
 */
export async function userinfoRoutes(app: FastifyInstance, { provider, issuer, jwks, frontendOrigins, users, mountPath }: IdentityContext) {
  const keys = createLocalJWKSet(publicJwks(jwks));

  async function claimsFor(token: string) {
    const { payload } = await jwtVerify(token, keys, { issuer, audience: ACCESS_TOKEN_AUDIENCE, algorithms: ['RS256'], typ: 'at+jwt' }).catch(
      (error: unknown) => {
        throw error instanceof joseErrors.JOSEError ? new InvalidToken(error.message) : error;
      },
    );
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    if (!scopes.includes('openid')) throw new InvalidToken('access token missing openid scope');
    const session = typeof payload.sid === 'string' ? await provider.Session.findByUid(payload.sid) : undefined;
    if (!session || session.accountId !== payload.sub) throw new InvalidToken('session not active');
    // Keycloak also wants the client's session in it: a reused refresh token revokes the grant
    // (provider.ts), and the access tokens it gave must stop working here too.
    const grantId = typeof payload.azp === 'string' ? session.grantIdFor(payload.azp) : undefined;
    if (!grantId || !(await provider.Grant.find(grantId))) throw new InvalidToken('client session not active');
    const account = payload.sub ? users.get(payload.sub) : undefined;
    if (!account?.enabled) throw new InvalidToken('user not found');
    return userClaims(account);
  }

  const refuse = (reply: FastifyReply, cors: Record<string, string>, body: object, challenge: string) =>
    reply.code(401).headers({ ...cors, 'WWW-Authenticate': challenge }).send(body);

  async function answer(request: FastifyRequest, reply: FastifyReply) {
    const cors = corsHeaders(request, frontendOrigins);
    const token = accessTokenOf(request);
    if (!token) {
      return refuse(reply, cors, { error: 'invalid_request', error_description: 'no access token provided' }, `Bearer realm="${issuer}"`);
    }
    try {
      return reply.headers(cors).send(await claimsFor(token));
    } catch (error) {
      if (!(error instanceof InvalidToken)) throw error;
      const body = { error: 'invalid_token', error_description: error.message };
      return refuse(reply, cors, body, `Bearer realm="${issuer}", error="invalid_token"`);
    }
  }

  async function preflight(request: FastifyRequest, reply: FastifyReply) {
    const cors = corsHeaders(request, frontendOrigins);
    const allowed = cors['Access-Control-Allow-Origin']
      ? { 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': 'Authorization, Content-Type', 'Access-Control-Max-Age': '3600' }
      : {};
    return reply.code(204).headers({ ...cors, ...allowed }).send();
  }

  allowOnly(app, `${mountPath}${ROUTES.userinfo}`, { GET: answer, POST: answer, OPTIONS: preflight }, {
    refuse: async (allow, request, reply) => reply.code(405).headers({ ...corsHeaders(request, frontendOrigins), Allow: allow }).send(),
  });
}
