import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: scrypt from node:crypto, stored as `scrypt$N$r$p$salt$hash` (base64url) so the
 * cost can change without invalidating stored hashes (each is checked at its own cost). N = 2^15
 * takes about 90 ms here and 32 MiB; OWASP's stronger 2^17 would take 128 MiB per sign-in on a
 * provider that shares two cores with the whole portal, and production uses Keycloak's own hashing
 * anyway. The provider's tests hash at a lower cost (IdentityAppOptions.passwordHashLog2N), as
 * Keycloak's `hashIterations` policy allows: they sign in hundreds of times.
 */
export const DEFAULT_PASSWORD_HASH_LOG2_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
// Node refuses above 32 MiB by default; 128 * N * r is exactly that for N = 2^15, r = 8.
const maxmemFor = (N: number, r: number): number => 128 * N * r + 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: maxmemFor(options.N, options.r) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `log2N`: scrypt's cost as a power of two, 2^10 (tests) to OWASP's 2^17 (128 MiB a hash). */
export async function hashPassword(password: string, log2N: number = DEFAULT_PASSWORD_HASH_LOG2_N): Promise<string> {
  if (!Number.isInteger(log2N) || log2N < 10 || log2N > 17) throw new RangeError(`scrypt cost 2^${log2N} is outside 2^10–2^17`);
  const salt = randomBytes(SALT_BYTES);
  const cost = { N: 2 ** log2N, r: R, p: P };
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const HASH_FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export function isPasswordHash(value: unknown): value is string {
  return typeof value === 'string' && HASH_FORMAT.test(value);
}

/** Compares in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parts = HASH_FORMAT.exec(hash);
  if (!parts) return false;
  const [, N, r, p, salt, expected] = parts as unknown as [string, string, string, string, string, string];
  const expectedKey = Buffer.from(expected, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * A hash of nothing anyone knows, at the provider's cost, compared against when the account is
 * unknown or has no password, so that every sign-in costs the same time whether the account
 * exists or not.
 */
export function dummyPasswordHash(log2N: number = DEFAULT_PASSWORD_HASH_LOG2_N): Promise<string> {
  let hash = dummyHashes.get(log2N);
  if (!hash) {
    hash = hashPassword(randomBytes(32).toString('base64url'), log2N);
    dummyHashes.set(log2N, hash);
  }
  return hash;
}
