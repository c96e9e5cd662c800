import { randomUUID } from 'node:crypto';

import { createLocalJWKSet, errors as joseErrors, importJWK, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';

import { publicJwks, type SigningJwks } from '../oidc/signing-keys';

/** Keycloak's default "Default Admin-Initiated Action Lifespan": 12 hours. */
export const DEFAULT_ACTION_LIFESPAN_SECONDS = 12 * 60 * 60;
export const MAX_ACTION_LIFESPAN_SECONDS = 30 * 24 * 60 * 60;

// Its own type and audience: an access or ID token is never taken for an action token, nor the
// other way round (userinfo and the admin API ask for `at+jwt`).
const TOKEN_TYPE = 'action+jwt';

export interface ActionToken {
  jti: string;
  /** The user's id. */
  sub: string;
  actions: string[];
  /** The user's credential version when the link was made (users.ts). */
  ver: number;
  clientId?: string;
  redirectUri?: string;
  exp: number;
}

export interface ActionTokens {
  create(input: Omit<ActionToken, 'jti' | 'exp'>, lifespanSeconds: number): Promise<string>;
  /** The token's content if its signature, type, audience and expiry hold and it was not used. */
  verify(token: string): Promise<ActionToken | undefined>;
  /** Marks a token used; false if it already was (two posts of the same form at once). */
  use(token: ActionToken): boolean;
}

/**
 * Keycloak's action tokens: a signed JWT in the link (`login-actions/action-token?key=…`), so the
 * link outlives a restart of the provider. Single use has two locks: the used ids are remembered
 * until they expire, and the token names the user's credential version, which setting the
 * password moves on, so a used link is dead even once a restart forgot the ids.
 */
export async function createActionTokens({ issuer, jwks }: { issuer: string; jwks: SigningJwks }): Promise<ActionTokens> {
  const signingJwk = jwks.keys[0];
  if (!signingJwk) throw new Error('no signing key');
  const privateKey = await importJWK(signingJwk, 'RS256');
  const keys = createLocalJWKSet(publicJwks(jwks));
  const audience = `${issuer}/login-actions`;
  const used = new LRUCache<string, true>({ max: 100_000, ttlAutopurge: false });

  return {
    async create({ sub, actions, ver, clientId, redirectUri }, lifespanSeconds) {
      return new SignJWT({ actions, ver, ...(clientId ? { azp: clientId } : {}), ...(redirectUri ? { redirect_uri: redirectUri } : {}) })
        .setProtectedHeader({ alg: 'RS256', typ: TOKEN_TYPE, ...(signingJwk.kid ? { kid: signingJwk.kid } : {}) })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(sub)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${lifespanSeconds}s`)
        .sign(privateKey);
    },

    async verify(token) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer, audience, typ: TOKEN_TYPE, algorithms: ['RS256'] }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return undefined;
        throw error;
      }
      const { jti, sub, exp, actions, ver, azp, redirect_uri: redirectUri } = payload;
      if (
        typeof jti !== 'string' ||
        typeof sub !== 'string' ||
        typeof exp !== 'number' ||
        !Array.isArray(actions) ||
        !actions.every((action) => typeof action === 'string') ||
        typeof ver !== 'number' ||
        used.has(jti)
      ) {
        return undefined;
      }
      return {
        jti,
        sub,
        exp,
        actions: actions as string[],
        ver,
        ...(typeof azp === 'string' ? { clientId: azp } : {}),
        ...(typeof redirectUri === 'string' ? { redirectUri } : {}),
      };
    },

    use(token) {
      if (used.has(token.jti)) return false;
      used.set(token.jti, true, { ttl: Math.max(1, token.exp * 1000 - Date.now()) });
      return true;
    },
  };
}
