import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: scrypt from node:crypto, stored as `scrypt$N$r$p$salt$hash` (base64url) so the
 * cost can be raised later without invalidating stored hashes. N = 2^15 takes about 90 ms here
 * and 32 MiB; OWASP's stronger 2^17 would take 128 MiB per sign-in on a provider that shares two
 * cores with the whole portal, and production uses Keycloak's own hashing anyway.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
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

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
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

let dummyHash: Promise<string> | undefined;

/**
 * A hash of nothing anyone knows, compared against when the account is unknown or has no
 * password, so that every sign-in costs the same time whether the account exists or not.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummyHash;
}
