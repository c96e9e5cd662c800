import type { BrightspaceConfig } from '../config';
import type { BrightspaceUser } from '../repositories/brightspace-repository';
import { OutboundError, type OutboundAnswer, type OutboundClient } from '../lib/outbound-http';

/** What whoami needs; D2L scopes are `group:resource:action`. */
export const BRIGHTSPACE_SCOPE = 'core:*:*';

/** The path the browser-binding cookies live under: this route and its callback only. */
export const BRIGHTSPACE_COOKIE_PATH = '/api/brightspace-auth';
/** Our states are base64url; nothing else names a cookie. */
export const BRIGHTSPACE_STATE_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;
/** One cookie per state, so two tabs starting the round trip do not undo each other. */
export const brightspaceCookieName = (state: string) => `bs_oauth_${state.slice(0, 16)}`;

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

/**
 * A Brightspace call through the guarded client (https, public addresses, no redirects, 5 s,
 * 256 kB); its refusals become BrightspaceErrors naming the code, never an answer's body.
 */
async function call(
  outbound: OutboundClient,
  what: string,
  url: string,
  init: Parameters<OutboundClient['request']>[1],
): Promise<OutboundAnswer> {
  try {
    return await outbound.request(url, init);
  } catch (error) {
    if (error instanceof OutboundError) throw new BrightspaceError(`${what}: ${error.message}`);
    throw error;
  }
}

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
  outbound: OutboundClient,
): Promise<string> {
  const basic = Buffer.from(
    `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`,
  ).toString('base64');
  const res = await call(outbound, 'token endpoint', config.tokenUrl, {
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
    }).toString(),
  });
  const body = res.json() as { access_token?: unknown } | undefined;
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
  outbound: OutboundClient,
): Promise<BrightspaceUser> {
  const whoami = `${config.host}/d2l/api/lp/${config.apiVersion}/users/whoami`;
  const res = await call(outbound, 'whoami', whoami, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });
  const body = res.json() as Record<string, unknown> | undefined;
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
