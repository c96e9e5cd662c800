import { createHash, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, createLocalJWKSet } from 'jose';
import type { BrokerKeys } from './broker-keys';
import type { BrokerClaims } from './broker-user';

/** ID and access tokens are read once by the identity provider, right after the code exchange. */
export const TOKEN_TTL_SECONDS = 300;

/** Compares a presented client secret without telling its length or first difference by timing. */
export function secretMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) must equal the stored challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = createHash('sha256').update(verifier).digest('base64url');
  return (
    computed.length === challenge.length &&
    timingSafeEqual(Buffer.from(computed), Buffer.from(challenge))
  );
}

export interface TokenRequest {
  issuer: string;
  clientId: string;
  claims: BrokerClaims;
  nonce: string | null;
  scope: string;
  /** The launch signed in with; the access token carries it as `sid` for userinfo's claims. */
  launchId: string;
}

/** The ID token (audience: the client) and a JWT access token for userinfo (audience: the broker). */
export async function issueTokens(keys: BrokerKeys, request: TokenRequest) {
  const { kid, key } = await keys.signingKey();
  const now = Math.floor(Date.now() / 1000);
  const { sub, ...profile } = request.claims;
  const idToken = await new SignJWT({
    ...profile,
    azp: request.clientId,
    auth_time: now,
    ...(request.nonce ? { nonce: request.nonce } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(request.issuer)
    .setAudience(request.clientId)
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_TTL_SECONDS)
    .sign(key);
  const accessToken = await new SignJWT({
    client_id: request.clientId,
    scope: request.scope,
    sid: request.launchId,
  })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(request.issuer)
    .setAudience(`${request.issuer}/userinfo`)
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_TTL_SECONDS)
    .sign(key);
  return { idToken, accessToken, expiresIn: TOKEN_TTL_SECONDS };
}

/** The user and launch an access token of this broker names, or null. */
export async function accessTokenSubject(
  keys: BrokerKeys,
  issuer: string,
  token: string,
): Promise<{ userId: string; launchId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(await keys.jwks()), {
      issuer,
      audience: `${issuer}/userinfo`,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    const { sub, sid } = payload as { sub?: unknown; sid?: unknown };
    return typeof sub === 'string' && typeof sid === 'string'
      ? { userId: sub, launchId: sid }
      : null;
  } catch {
    return null;
  }
}
