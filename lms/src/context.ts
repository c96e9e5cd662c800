import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { LmsKeys } from './keys';
import type { LmsStore, LmsUser } from './store';

/** Everything the route modules share: settings, the store, our keys, the tool's keys. */
export interface LmsContext {
  /** Our issuer; every URL we give out starts with it. */
  issuer: string;
  portalUrl: string;
  /** Where the tool's id_token form post goes: the only redirect_uri registered for LTI. */
  toolLaunchUrl: string;
  toolLoginUrl: string;
  clientId: string;
  deploymentId: string;
  brightspaceClientId: string;
  brightspaceClientSecret: string | null;
  tokenUrl: string;
  store: LmsStore;
  keys: LmsKeys;
  toolKeys: JWTVerifyGetKey;
  /** The outage switch: token and AGS endpoints answer 503 while it is on. */
  outage: { down: boolean };
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

/** Only paths of ours may be a sign-in's destination (never another origin). */
export function safeReturnPath(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/course';
}

export function toSignIn(request: FastifyRequest, reply: FastifyReply) {
  return reply.redirect(`/login?return=${encodeURIComponent(request.url)}`, 303);
}

export function isLoopback(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
