import type { BrightspaceConfig } from '../config';
import type { BrightspaceUser } from '../repositories/brightspace-repository';

/** What whoami needs; D2L scopes are `group:resource:action`. */
export const BRIGHTSPACE_SCOPE = 'core:*:*';
/** Brightspace answers within this, or the round trip fails with a clear page instead of hanging. */
const CALL_TIMEOUT_MS = 10_000;

/**
 * Where the callback may send the browser: a path of our own origin. Only `/…`, never `//host`
 * or `/\host` (browsers read both as another host), no scheme, no control characters or
 * backslashes anywhere; anything else is `/`.
 */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return '/';
  if (!value.startsWith('/') || value.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
  if (/[\\\u0000-\u001f\u007f\s]/.test(value)) return '/';
  // A last check with the browser's own parser: the path must stay on the origin it is given.
  const base = 'http://portal.invalid';
  try {
    if (new URL(value, base).origin !== base) return '/';
  } catch {
    return '/';
  }
  return value;
}

export class BrightspaceError extends Error {}

/** The authorization request (RFC 6749 §4.1.1). */
export function authorizationUrl(config: BrightspaceConfig, redirectUri: string, state: string) {
  const url = new URL(config.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', BRIGHTSPACE_SCOPE);
  url.searchParams.set('state', state);
  return url.toString();
}

/**
 * The code for an access token (RFC 6749 §4.1.3). The client authenticates with HTTP Basic, the
 * method every OAuth server must support and the one D2L's token endpoint requires.
 */
export async function exchangeCode(
  config: BrightspaceConfig,
  code: string,
  redirectUri: string,
): Promise<string> {
  const basic = Buffer.from(
    `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`,
  ).toString('base64');
  const res = await fetch(config.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    }),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const body = (await res.json().catch(() => null)) as { access_token?: unknown } | null;
  if (!res.ok || typeof body?.access_token !== 'string' || body.access_token === '') {
    throw new BrightspaceError(`token endpoint answered ${res.status}`);
  }
  return body.access_token;
}

const text = (value: unknown, max = 255) => (typeof value === 'string' ? value.slice(0, max) : '');

/** Valence `GET /d2l/api/lp/{version}/users/whoami` with the user's token. */
export async function fetchWhoami(
  config: BrightspaceConfig,
  accessToken: string,
): Promise<BrightspaceUser> {
  const res = await fetch(`${config.host}/d2l/api/lp/${config.apiVersion}/users/whoami`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  const id = body?.Identifier;
  // Valence documents Identifier as a string; a number is the same user.
  const identifier = typeof id === 'number' && Number.isFinite(id) ? String(id) : id;
  if (!res.ok || typeof identifier !== 'string' || identifier === '' || identifier.length > 255) {
    throw new BrightspaceError(`whoami answered ${res.status} without a usable Identifier`);
  }
  return {
    identifier,
    uniqueName: text(body?.UniqueName),
    firstName: text(body?.FirstName),
    lastName: text(body?.LastName),
  };
}
