import fp from 'fastify-plugin';
import {
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import {
  hasAnyPermission,
  INVALID_TOKEN,
  NOT_AUTHENTICATED,
  PERMISSION_DENIED,
  USER_NOT_REGISTERED,
} from '@portal/contract';
import { ApiError, forbidden, unauthorized } from '../../lib/http-errors';
import type { AuthUser } from '../../repositories/user-repository';
import { accessOf } from './access';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every non-public route; null only on public routes and 404s. */
    user: AuthUser | null;
    tokenClaims: JWTPayload | null;
  }
}

export interface AuthPluginOptions {
  /** Key source for token signatures; tests pass a local key so no identity server is needed. */
  jwks?: JWTVerifyGetKey;
}

export function jwksUrl(issuer: string): URL {
  return new URL(`${issuer}/protocol/openid-connect/certs`);
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Keycloak puts the client in `azp` and `account` in `aud`; other issuers put the client in `aud`. */
function issuedToClient(claims: JWTPayload, clientId: string): boolean {
  if (claims.azp === clientId) return true;
  const aud = claims.aud;
  return aud === clientId || (Array.isArray(aud) && aud.includes(clientId));
}

/** Token problems are the caller's (401); failing to reach the key server is ours (503). */
function isTokenError(error: unknown): boolean {
  return (
    error instanceof joseErrors.JOSEError &&
    !(error instanceof joseErrors.JWKSTimeout) &&
    !(error instanceof joseErrors.JWKSInvalid)
  );
}

/** How long an accepted token skips signature verification; bounds a key rotation's reach. */
const ACCEPTED_TOKEN_TTL_MS = 60_000;
/** Bounds memory: the oldest accepted token makes room. */
const ACCEPTED_TOKENS_MAX = 10_000;

export const authPlugin = fp<AuthPluginOptions>(
  async (app, options) => {
    const { oidcIssuer, oidcClientId } = app.config;
    const jwks = options.jwks ?? createRemoteJWKSet(jwksUrl(oidcIssuer));

    app.decorateRequest('user', null);
    app.decorateRequest('tokenClaims', null);

    // Tokens that passed every check, by their exact text. The same token comes back on every
    // call of a session (learners poll twice a second), and its RS256 check is a third of such a
    // call's CPU (api/bench). Never past the token's own `exp`.
    const accepted = new Map<string, { claims: JWTPayload; until: number }>();
    const remember = (token: string, claims: JWTPayload) => {
      if (accepted.size >= ACCEPTED_TOKENS_MAX) {
        const oldest = accepted.keys().next();
        if (!oldest.done) accepted.delete(oldest.value);
      }
      const until = Math.min((claims.exp ?? 0) * 1000, Date.now() + ACCEPTED_TOKEN_TTL_MS);
      accepted.set(token, { claims, until });
    };

    app.addHook('onRequest', async (request, reply) => {
      if (request.is404) return;
      const access = accessOf(request.routeOptions.config);
      // Public routes need nothing; simulator routes are checked by the session-token plugin.
      if (access === 'public' || access === 'session') return;
      if (access === null) {
        // Fail closed: a route that forgot to declare its permissions is usable by no one.
        request.log.error({ url: request.routeOptions.url }, 'route declares no permissions');
        throw forbidden(PERMISSION_DENIED);
      }

      reply.header('www-authenticate', 'Bearer');
      const token = bearerToken(request.headers.authorization);
      if (!token) throw unauthorized(NOT_AUTHENTICATED);

      let claims: JWTPayload;
      const known = accepted.get(token);
      if (known && known.until > Date.now()) {
        claims = known.claims;
      } else {
        try {
          ({ payload: claims } = await jwtVerify(token, jwks, {
            issuer: oidcIssuer,
            algorithms: ['RS256'],
            requiredClaims: ['exp', 'sub'],
          }));
        } catch (error) {
          if (!isTokenError(error)) {
            request.log.error({ err: error }, 'could not verify token: key set unavailable');
            throw new ApiError(503, { detail: 'Authentication service unavailable.' });
          }
          request.log.info({ code: (error as joseErrors.JOSEError).code }, 'token refused');
          throw unauthorized(INVALID_TOKEN);
        }
        if (!issuedToClient(claims, oidcClientId)) {
          request.log.info({ azp: claims.azp, aud: claims.aud }, 'token issued to another client');
          throw unauthorized(INVALID_TOKEN);
        }
        remember(token, claims);
      }
      reply.removeHeader('www-authenticate');

      // Reused for a few seconds: learners poll whoami and session status every second.
      const user = await app.repos.users.cachedAuthUser(String(claims.sub));
      if (!user) throw forbidden(USER_NOT_REGISTERED);
      request.user = user;
      request.tokenClaims = claims;

      // Checked here rather than in a preHandler so a caller without the permission never
      // gets as far as body parsing and validation (no field errors leak to them).
      if (access !== 'authenticated' && !hasAnyPermission(user.permissions, access)) {
        throw forbidden(PERMISSION_DENIED);
      }
    });
  },
  { name: 'auth', dependencies: ['config', 'repositories', 'access'] },
);

/** The signed-in user of a non-public route (the auth hook guarantees one). */
export function currentUser(request: { user: AuthUser | null }): AuthUser {
  if (!request.user) throw new Error('currentUser() called on a route without authentication');
  return request.user;
}
