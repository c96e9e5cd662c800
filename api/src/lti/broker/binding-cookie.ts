import type { FastifyReply } from 'fastify';
import { launchCookieOptions } from '../launch-cookie-options';
import { BINDING_TTL_SECONDS } from './broker-store';

/** The cookie that binds this browser to the launch it just made (path: the broker only). */
export const BINDING_COOKIE = 'lti_broker_binding';
export const BROKER_PATH = '/api/lti/broker';

/**
 * The authorization request reaches the broker as a navigation from the identity provider,
 * inside the platform's iframe for an embedded launch: the launch cookies' rules (None + Secure
 * on https, Lax on plain http).
 */
export function setBindingCookie(reply: FastifyReply, token: string, portalUrl: string): void {
  reply.setCookie(
    BINDING_COOKIE,
    token,
    launchCookieOptions(portalUrl, { path: BROKER_PATH, maxAgeSeconds: BINDING_TTL_SECONDS }),
  );
}

export function clearBindingCookie(reply: FastifyReply, portalUrl: string): void {
  reply.clearCookie(BINDING_COOKIE, launchCookieOptions(portalUrl, { path: BROKER_PATH }));
}
