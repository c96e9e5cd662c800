import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/** The platform's RS256 key pair, made at start: the tool refetches our JWKS when it sees a new kid. */
export interface LmsKeys {
  kid: string;
  jwks: { keys: JWK[] };
  /** The private key with its kid, to keep on disk. */
  privateJwk: JWK;
  sign(claims: JWTPayload, options: { audience: string | string[]; expiresInSeconds: number }): Promise<string>;
}

/** A new key pair, or the one `saved` (a private JWK with its kid) from an earlier start. */
export async function createKeys(issuer: string, saved?: JWK | null): Promise<LmsKeys> {
  let key: CryptoKey;
  let privateJwk: JWK;
  if (saved?.kid && saved.d) {
    key = (await importJWK(saved, 'RS256')) as CryptoKey;
    privateJwk = saved;
  } else {
    const pair = await generateKeyPair('RS256', { extractable: true });
    key = pair.privateKey;
    privateJwk = { ...(await exportJWK(pair.privateKey)), kid: `lms-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
  }
  const kid = privateJwk.kid!;
  const { kty, n, e } = privateJwk;
  const publicJwk: JWK = { kty, n, e, kid, alg: 'RS256', use: 'sig' };
  return {
    kid,
    privateJwk,
    jwks: { keys: [publicJwk] },
    sign: (claims, { audience, expiresInSeconds }) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(`${expiresInSeconds}s`)
        .sign(key),
  };
}
