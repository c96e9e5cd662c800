import type { FastifyReply, FastifyRequest } from 'fastify';
import { launchCookieOptions } from './launch-cookie-options';

/**
 * The cookie that binds this browser to the launch it just made (issue #22 points 1 and 2): set by
 * the launch's answer, or by redeeming an "Open in a new window" ticket. Its value is a random
 * secret; the server keeps only its SHA-256 with the launch (lti_launch_browsers), so the launch
 * id alone never stands for the browser. HttpOnly; under /api, where the API reads it.
 */
export const LAUNCH_BROWSER_COOKIE = 'lti_launch_browser';

/** As long as a launch may start a session (LTI_LAUNCH_MAX_AGE_SECONDS is longer; sign-in is first). */
export const LAUNCH_BROWSER_COOKIE_SECONDS = 3600;

const PATH = '/api';

export function setLaunchBrowserCookie(reply: FastifyReply, portalUrl: string, secret: string) {
  reply.setCookie(
    LAUNCH_BROWSER_COOKIE,
    secret,
    launchCookieOptions(portalUrl, { path: PATH, maxAgeSeconds: LAUNCH_BROWSER_COOKIE_SECONDS }),
  );
}

export function clearLaunchBrowserCookie(reply: FastifyReply, portalUrl: string) {
  reply.clearCookie(LAUNCH_BROWSER_COOKIE, launchCookieOptions(portalUrl, { path: PATH }));
}

/** The cookie's value when the browser sent one that can be ours (base64url, 43 characters). */
export function launchBrowserCookieOf(request: FastifyRequest): string | null {
  const value = request.cookies[LAUNCH_BROWSER_COOKIE];
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}
