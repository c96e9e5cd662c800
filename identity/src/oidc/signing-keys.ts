import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { calculateJwkThumbprint, type JWK } from 'jose';

export interface SigningJwks {
  keys: JWK[];
}

const KEY_FILE = 'signing-keys.json';

export async function generateSigningJwks(): Promise<SigningJwks> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  // A thumbprint kid is stable for the key and lets verifiers pick it from the JWKS.
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  return { keys: [{ ...jwk, kid, use: 'sig', alg: 'RS256' }] };
}

function isSigningJwks(value: unknown): value is SigningJwks {
  if (typeof value !== 'object' || value === null) return false;
  const { keys } = value as { keys?: unknown };
  return (
    Array.isArray(keys) &&
    keys.length > 0 &&
    keys.every((key: JWK) => key?.kty === 'RSA' && typeof key.d === 'string' && typeof key.kid === 'string')
  );
}

/**
 * Keeps the key in a git-ignored folder so tokens stay verifiable across restarts of the local
 * provider; the file is created owner-readable only and never leaves the machine.
 */
export async function loadOrCreateSigningJwks(dataDir: string): Promise<SigningJwks> {
  const file = join(dataDir, KEY_FILE);
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isSigningJwks(parsed)) {
      throw new Error(`${file} does not hold an RSA private JWKS; delete it to generate a new key`);
    }
    return parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const jwks = await generateSigningJwks();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(jwks)}\n`, { mode: 0o600, flag: 'wx' });
  return jwks;
}

/** The public half, for verifying our own tokens (userinfo). */
export function publicJwks(jwks: SigningJwks): SigningJwks {
  return {
    keys: jwks.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
}
