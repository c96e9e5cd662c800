import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import {
  hostsOf,
  OutboundError,
  type OutboundAnswer,
  type OutboundClient,
  type OutboundErrorCode,
  type OutboundRequest,
} from '../lib/outbound-http';
import type { ToolKeys } from './tool-keys';

/**
 * Calls to an LTI Advantage service of a platform (AGS, NRPS): OAuth2 client credentials with a
 * JWT client assertion signed by the tool key (1EdTech Security Framework §4.1), tokens kept per
 * platform and scope set until near expiry, a 401 answered with one fresh token, every call
 * through the guarded outbound client. Errors name the step, a code and the HTTP status, never
 * the answer's body: they are stored and audited.
 */

const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** The longest a Retry-After is honoured; a platform asking for more is asked again then. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** A platform registration as the service calls need it. */
export interface PlatformRow {
  issuer: string;
  client_id: string;
  access_token_url: string;
  auth_login_url: string;
  jwks_url: string;
  organisation_id: number;
  /** The client assertion's `aud` when the platform wants another than the token URL (Brightspace). */
  token_audience?: string | null;
}

/** The columns of `lti_platforms` a PlatformRow is read from (`p` the table's alias). */
export const PLATFORM_ROW_SQL = `p.issuer, p.client_id, p.access_token_url, p.auth_login_url,
  p.jwks_url, p.organisation_id, p.token_audience`;

/** The hosts service URLs may lie on: those the platform's registration names. */
export const platformHosts = (p: PlatformRow) =>
  hostsOf([p.issuer, p.access_token_url, p.auth_login_url, p.jwks_url]);

/** Why a platform call failed: the guarded client's codes and these. */
export type PlatformCallErrorCode =
  | OutboundErrorCode
  /** The platform answered with an error status (the status is kept beside it). */
  | 'HTTP_STATUS'
  /** A 2xx answer without what it must hold (access_token, a line item id, members). */
  | 'INVALID_ANSWER'
  | 'PLATFORM_REMOVED'
  | 'GAVE_UP';

/** Outbound refusals that asking again cannot change (timeouts and network errors can). */
const PERMANENT_OUTBOUND: ReadonlySet<OutboundErrorCode> = new Set([
  'OUTBOUND_BLOCKED_URL',
  'OUTBOUND_BLOCKED_HOST',
  'OUTBOUND_BLOCKED_ADDRESS',
  'REDIRECT_REFUSED',
  'TOO_LARGE',
]);

/**
 * A failed platform call. `permanent`: asking again cannot help (a 4xx other than 401/429, a
 * refused URL). The message is `step: CODE (HTTP status)`: it holds nothing the platform wrote.
 */
export class PlatformCallError extends Error {
  constructor(
    readonly step: string,
    readonly code: PlatformCallErrorCode,
    readonly status: number | null,
    readonly permanent: boolean,
    /** The platform's Retry-After; the worker waits at least this long. */
    readonly retryAfterMs?: number,
  ) {
    super(`${step}: ${code}${status === null ? '' : ` (HTTP ${status})`}`);
    this.name = 'PlatformCallError';
  }
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3), capped; undefined when absent. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/**
 * What a failed answer means; a 401 is the caller's to handle (token refresh). The body is not
 * read into the error: platforms put stack traces and tokens there.
 */
export function callError(what: string, res: OutboundAnswer): PlatformCallError {
  const transient = res.status >= 500 || res.status === 429 || res.status === 408;
  return new PlatformCallError(
    what,
    'HTTP_STATUS',
    res.status,
    !transient,
    transient ? retryAfterMs(res.headers.get('retry-after')) : undefined,
  );
}

export interface PlatformTokenOptions {
  toolKeys: ToolKeys;
  /** The guarded client every platform call goes through. */
  outbound: OutboundClient;
}

/** Service calls with tokens of the platform's token endpoint; see the module comment. */
export function createPlatformTokens({ toolKeys, outbound }: PlatformTokenOptions) {
  // Bounded only so that a misbehaving registration list cannot grow it without end: a portal has
  // a handful of platforms, each with one or two scope sets.
  const tokens = new LRUCache<string, string>({ max: 1000 });
  let fetched = 0;

  /** One outbound call; the guarded client's refusals become PlatformCallErrors of `what`. */
  async function call(url: string, init: OutboundRequest, what: string): Promise<OutboundAnswer> {
    try {
      return await outbound.request(url, init);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      throw new PlatformCallError(
        what,
        error.code,
        error.status,
        PERMANENT_OUTBOUND.has(error.code),
      );
    }
  }

  // The audience is part of the key: a token got under an audience since corrected is not reused.
  const tokenKey = (platform: PlatformRow, scopes: readonly string[]) =>
    `${platform.access_token_url} ${platform.token_audience ?? ''} ${platform.client_id} ${[...scopes].sort().join(' ')}`;

  /**
   * iss = sub = our client id, a fresh jti, 5 minutes; aud = the token URL (Security Framework
   * §4.1.1) unless the registration names the platform's audience: Brightspace checks for
   * https://api.brightspace.com/auth/token and refuses its own token URL.
   */
  async function fetchToken(platform: PlatformRow, scopes: readonly string[]): Promise<string> {
    const { kid, key } = await toolKeys.signingKey();
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(platform.client_id)
      .setSubject(platform.client_id)
      .setAudience(platform.token_audience || platform.access_token_url)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const res = await call(
      platform.access_token_url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: CLIENT_ASSERTION_TYPE,
          client_assertion: assertion,
          scope: scopes.join(' '),
        }).toString(),
      },
      'access token',
    );
    // A token refused for our assertion is a registration problem, not a passing one.
    if (!res.ok) throw callError('access token', res);
    const body = res.json() as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof body?.access_token !== 'string' || body.access_token === '') {
      throw new PlatformCallError('access token', 'INVALID_ANSWER', res.status, false);
    }
    fetched++;
    const lifetimeMs =
      (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600) * 1000;
    // Given up a minute early (or at half its life, if shorter): a token must not expire in flight.
    tokens.set(tokenKey(platform, scopes), body.access_token, {
      ttl: lifetimeMs - Math.min(60_000, lifetimeMs / 2),
    });
    return body.access_token;
  }

  async function tokenFor(platform: PlatformRow, scopes: readonly string[]): Promise<string> {
    const cached = tokens.get(tokenKey(platform, scopes));
    if (cached !== undefined) return cached;
    return fetchToken(platform, scopes);
  }

  /** `request` with a token; a 401 drops the token and tries once more with a fresh one. */
  async function withToken(
    platform: PlatformRow,
    scopes: readonly string[],
    what: string,
    request: (token: string) => Promise<OutboundAnswer>,
  ): Promise<OutboundAnswer> {
    let res = await request(await tokenFor(platform, scopes));
    if (res.status === 401) {
      tokens.delete(tokenKey(platform, scopes));
      res = await request(await fetchToken(platform, scopes));
    }
    if (!res.ok) throw callError(what, res);
    return res;
  }

  return {
    call,
    withToken,
    /** Tokens fetched so far (for tests: reuse and refresh are observable). */
    tokensFetched: () => fetched,
  };
}

export type PlatformTokens = ReturnType<typeof createPlatformTokens>;
