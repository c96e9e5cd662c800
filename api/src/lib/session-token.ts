import { createHash, randomBytes } from 'node:crypto';
import { SESSION_TOKEN_SCHEME } from '@portal/contract';

/** 32 random bytes in base64url are always 43 characters of this alphabet. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Only this hash is stored: a database leak must not hand out live simulator credentials, and a
 * 256-bit random token needs no salt or slow hash to resist guessing.
 */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of `Authorization: Session <token>`, or null when the header is absent or malformed. */
export function sessionTokenFrom(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (rest.length > 0 || scheme?.toLowerCase() !== SESSION_TOKEN_SCHEME.toLowerCase()) return null;
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : null;
}
