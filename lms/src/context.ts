import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { LtiClient } from './institutions';
import type { LmsKeys } from './keys';
import type { Roster } from './roster';
import type { LmsSecurityHeaders } from './security';
import type { LmsStore, LmsUser } from './store';

/** Everything the route modules share: settings, the store, our keys, the tool's keys. */
export interface LmsContext {
  /** Our issuer; every URL we give out starts with it. */
  issuer: string;
  portalUrl: string;
  /** Where the tool's id_token form post goes: the only redirect_uri registered for LTI. */
  toolLaunchUrl: string;
  toolLoginUrl: string;
  /** Demo Hospital's client: every user's but the Brightspace college's (institutions.ts). */
  clientId: string;
  deploymentId: string;
  /** Demo Brightspace College's client. */
  brightspaceLtiClient: LtiClient;
  brightspaceClientId: string;
  brightspaceClientSecret: string | null;
  tokenUrl: string;
  store: LmsStore;
  keys: LmsKeys;
  toolKeys: JWTVerifyGetKey;
  /** The outage switch: token, AGS and NRPS endpoints answer 503 while it is on. */
  outage: { down: boolean };
  /** The Demo course's members (NRPS). */
  roster: Roster;
  /** NRPS test faults: the memberships endpoint answers 503; tokens for the NRPS scope are refused. */
  nrps: { down: boolean; refuseTokens: boolean };
  /** Origins the embedded launch's frame may show: the portal, and any its sign-in passes through. */
  frameOrigins: string[];
  /** Header variants for the pages the embedded launch frames or is (security.ts). */
  security: LmsSecurityHeaders;
}

export const SESSION_COOKIE = 'lms_session';

export function createToolKeys(url: string): JWTVerifyGetKey {
  // jose keeps the keys 10 minutes and refetches on an unknown kid at most every 30 s.
  return createRemoteJWKSet(new URL(url), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
}

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function signedInUser(ctx: LmsContext, request: FastifyRequest): LmsUser | null {
  return ctx.store.user(ctx.store.sessions.get(cookieOf(request, SESSION_COOKIE)) ?? undefined);
}

/** What a return path of our own pages may hold: a path and a query, percent-escaped. */
const RETURN_PATH = /^\/[A-Za-z0-9/_\-.~?=&%+*]*$/;
/** Tabs, newlines and other controls: browsers drop them, so `/\t/evil.com` reads as `//evil.com`. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Where sign-in sends the browser back to: one of the stand-in's own relative paths, else
 * `/course`. An allow-list, not a block-list: `//host`, `/\host`, `https://host` and any
 * control character fail it. Checked escaped and unescaped, so `/%09/evil.com` or
 * `/%2F/evil.com` do not pass either (a server or browser decoding once must not leave).
 */
export function safeReturnPath(value: unknown): string {
  const fallback = '/course';
  if (typeof value !== 'string' || value.length > 4000 || !RETURN_PATH.test(value)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return fallback;
  }
  for (const form of [value, decoded]) {
    if (form.startsWith('//') || form.startsWith('/\\') || CONTROL.test(form)) return fallback;
  }
  return value;
}

export function toSignIn(request: FastifyRequest, reply: FastifyReply) {
  return reply.redirect(`/login?return=${encodeURIComponent(request.url)}`, 303);
}

export function isLoopback(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
