import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/** The platform's RS256 key pair, made at start: the tool refetches our JWKS when it sees a new kid. */
export interface LmsKeys {
  kid: string;
  jwks: { keys: JWK[] };
  sign(claims: JWTPayload, options: { audience: string | string[]; expiresInSeconds: number }): Promise<string>;
}

export async function createKeys(issuer: string): Promise<LmsKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = `lms-${randomBytes(6).toString('hex')}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const key: CryptoKey = privateKey;
  return {
    kid,
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
