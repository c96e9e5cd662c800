import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import {
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import {
  hasAnyPermission,
  INVALID_TOKEN,
  NOT_AUTHENTICATED,
  ORGANISATION_DEACTIVATED,
  ORGANISATION_DEACTIVATED_DETAIL,
  PERMISSION_DENIED,
  USER_NOT_REGISTERED,
} from '@portal/contract';
import { ApiError, forbidden, unauthorized } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import type { AuthUser } from '../../repositories/user-repository';
import { cacheLookupCounter } from '../../metrics/api-metrics';
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

/**
 * Only access tokens open the API. An ID token is signed by the same issuer with the same key and
 * names the same user, but it is handed to the browser for the browser's own use (it ends up in
 * logs, `id_token_hint` URLs and other clients); it must never work as a credential here.
 *
 * - RFC 9068 access tokens (our identity provider's) say so in the header: `typ: at+jwt`.
 * - Keycloak's say so in a claim: `typ: "Bearer"` (its ID tokens carry "ID", refresh tokens
 *   "Refresh", logout tokens "Logout"), with the header's generic `typ: JWT`.
 * An ID token of oidc-provider has the header `typ: JWT` and no `typ` claim, so it fails both.
 */
function isAccessToken(header: JWTHeaderParameters, claims: JWTPayload): boolean {
  if (claims.typ !== undefined && claims.typ !== 'Bearer') return false;
  const headerTyp =
    typeof header.typ === 'string'
      ? header.typ.toLowerCase().replace(/^application\//, '')
      : undefined;
  if (headerTyp === 'at+jwt') return true;
  return claims.typ === 'Bearer' && (headerTyp === undefined || headerTyp === 'jwt');
}

/**
 * The token was issued to our client. Only `azp` says so: Keycloak and our identity provider both
 * set it on access tokens. `aud` is deliberately not enough: OIDC makes the client the `aud` of
 * every ID token, so "aud = client id" is what an ID token looks like, and Keycloak's access tokens
 * name resource servers (`account`) there instead. An issuer that leaves `azp` out is not one the
 * API supports (docs/architecture.md, "Access token").
 */
function issuedToClient(claims: JWTPayload, clientId: string): boolean {
  return claims.azp === clientId;
}

/** Token problems are the caller's (401); failing to reach the key server is ours (503). */
function isTokenError(error: unknown): boolean {
  return (
    error instanceof joseErrors.JOSEError &&
    !(error instanceof joseErrors.JWKSTimeout) &&
    !(error instanceof joseErrors.JWKSInvalid)
  );
}

/**
 * Asymmetric algorithms only: the public key is public, so any algorithm that could take it as an
 * HMAC secret (HS256) would let anyone sign; `none` is never accepted by jose's jwtVerify anyway.
 */
const ALGORITHMS = ['RS256', 'ES256'];

type AccessClaims = JWTPayload & { sub: string; exp: number };

/** Why a token was refused, for the log; the caller only ever learns INVALID_TOKEN. */
class RefusedToken extends Error {}

/** How long an accepted token skips signature verification; bounds a key rotation's reach. */
export const ACCEPTED_TOKEN_TTL_MS = 60_000;
/**
 * Each token's reuse ends at a random point in the last quarter of that time. Tokens accepted
 * together (a class that starts a lab at once; the 1 000 learners of bench:api, whose window opened
 * a minute after their first calls) would otherwise all be verified again in the same second, every
 * minute: in that second the API's loop went from half to three quarters busy, with gaps of 30–90
 * ms (api/docs/latency-journal.md, "Night: a token check every minute, all at once").
 */
export const ACCEPTED_TOKEN_TTL_SPREAD = 0.25;
/** Bounds memory: the least recently used accepted token makes room. */
const ACCEPTED_TOKENS_MAX = 10_000;

export const authPlugin = fp<AuthPluginOptions>(
  async (app, options) => {
    const { oidcIssuer, oidcClientId } = app.config;
    const jwks = options.jwks ?? createRemoteJWKSet(jwksUrl(oidcIssuer));

    app.decorateRequest('user', null);
    app.decorateRequest('tokenClaims', null);

    /** Every check a token must pass; only what passes them all is ever remembered. */
    const verifyAccessToken = async (token: string): Promise<AccessClaims> => {
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        issuer: oidcIssuer,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
        currentDate: app.clock.now(),
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw new RefusedToken('subject is not a string');
      }
      if (!isAccessToken(protectedHeader, payload)) {
        throw new RefusedToken(
          `not an access token (typ ${String(protectedHeader.typ)}/${String(payload.typ)})`,
        );
      }
      if (!issuedToClient(payload, oidcClientId)) {
        throw new RefusedToken(`issued to another client (azp ${String(payload.azp)})`);
      }
      return payload as AccessClaims;
    };

    // Tokens that passed every check of verifyAccessToken, by their exact text: a cached entry
    // stands for exactly the token that was checked, so the cache cannot let a different token
    // skip a check. The same token comes back on every call of a session (learners poll twice a
    // second), and its RS256 check is a third of such a call's CPU (api/bench). Never past the
    // token's own `exp`. The user is not part of it: it is read on every call (through the users'
    // own few-second cache), so a deleted user is refused.
    const now = () => app.clock.now().getTime();
    // Times are the app's clock's (tests move it), read on every look-up (no resolution cache).
    const accepted = new LRUCache<string, AccessClaims>({
      max: ACCEPTED_TOKENS_MAX,
      perf: { now },
      ttlResolution: 0,
    });
    const tokenLookup = cacheLookupCounter(app.metrics, 'access_token');
    const remember = (token: string, claims: AccessClaims) => {
      const reuse = ACCEPTED_TOKEN_TTL_MS * (1 - ACCEPTED_TOKEN_TTL_SPREAD * Math.random());
      const ttl = Math.floor(Math.min(claims.exp * 1000 - now(), reuse));
      // A ttl of 0 would mean "for ever" to the cache; a token that close to `exp` is not kept.
      if (ttl >= 1) accepted.set(token, claims, { ttl });
    };
    // A learner's whoami and session status arrive together with the same token: the first
    // miss verifies it and the others wait for that answer, so a token is checked once, not once
    // per connection. Holds only checks under way; a refusal is not remembered.
    const verifying = new Map<string, Promise<AccessClaims>>();
    const verifyOnce = (token: string): Promise<AccessClaims> => {
      let check = verifying.get(token);
      if (check === undefined) {
        check = verifyAccessToken(token)
          .then((claims) => {
            remember(token, claims);
            return claims;
          })
          .finally(() => verifying.delete(token));
        verifying.set(token, check);
      }
      return check;
    };

    /** The 403 every route answers a deactivated organisation's member, saying whom to ask. */
    const organisationDeactivated = async (user: AuthUser) => {
      const organisation =
        user.organisationId === null
          ? null
          : await app.repos.organisations.contactsOf(user.organisationId);
      return new ApiError(403, {
        detail: ORGANISATION_DEACTIVATED_DETAIL,
        code: ORGANISATION_DEACTIVATED,
        organisation: organisation ?? {
          id: user.organisationId ?? 0,
          name: user.organisationName ?? '',
          mainContact: null,
          administrators: [],
        },
        language: user.language,
      });
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

      let claims: AccessClaims;
      const known = accepted.get(token);
      tokenLookup(known !== undefined ? 'hit' : 'miss');
      if (known) {
        claims = known;
      } else {
        try {
          claims = await verifyOnce(token);
        } catch (error) {
          if (error instanceof RefusedToken) {
            request.log.info({ reason: error.message }, 'token refused');
            throw unauthorized(INVALID_TOKEN);
          }
          if (!isTokenError(error)) {
            request.log.error({ err: error }, 'could not verify token: key set unavailable');
            throw new ApiError(503, { detail: 'Authentication service unavailable.' });
          }
          request.log.info({ code: (error as joseErrors.JOSEError).code }, 'token refused');
          throw unauthorized(INVALID_TOKEN);
        }
      }
      reply.removeHeader('www-authenticate');

      // Reused for a few seconds: learners poll whoami and session status every second.
      const user = await app.authUsers.get(claims.sub);
      if (!user) throw forbidden(USER_NOT_REGISTERED);
      // A deactivated organisation's members can do nothing until it is reactivated; global
      // administrators run the portal (and reactivate it), so they are never stopped.
      if (!user.organisationActive && !isGlobalAdmin(user)) {
        throw await organisationDeactivated(user);
      }
      request.user = user;
      request.tokenClaims = claims;

      // Checked here rather than in a preHandler so a caller without the permission never
      // gets as far as body parsing and validation (no field errors leak to them).
      if (access !== 'authenticated' && !hasAnyPermission(user.permissions, access)) {
        throw forbidden(PERMISSION_DENIED);
      }
    });
  },
  { name: 'auth', dependencies: ['config', 'clock', 'repositories', 'access'] },
);

/** The signed-in user of a non-public route (the auth hook guarantees one). */
export function currentUser(request: { user: AuthUser | null }): AuthUser {
  if (!request.user) throw new Error('currentUser() called on a route without authentication');
  return request.user;
}
