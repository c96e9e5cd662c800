import { createHash, randomBytes } from 'node:crypto';

import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * OpenID Connect Session Management 1.0, as Keycloak offers it (oidc-provider 7 dropped its own).
 * Each authorization response carries `session_state`, a salted hash of the client, the portal's
 * origin and the browser state; the browser state lives in a cookie the login-status iframe can
 * read. When the session ends or changes, the cookie does too, and the iframe answers "changed".
 */

/** Keycloak calls its cookie KEYCLOAK_SESSION; the name is ours, nothing outside reads it. */
export const BROWSER_STATE_COOKIE = 'IDENTITY_BROWSER_STATE';

/**
 * The browser state of a provider session: stable for the session, different for the next one,
 * and not the session id itself (scripts on the provider's origin may read the cookie).
 */
export const browserStateOf = (sessionUid: string): string =>
  createHash('sha256').update(`portal-browser-state:${sessionUid}`).digest('base64url');

/**
 * Session Management 1.0 §3: `hash(client_id + " " + origin + " " + browser_state + " " + salt) + "." + salt`.
 * The iframe computes the same in the browser (login-status/page.ts), so the two must agree.
 */
export function sessionStateFor(clientId: string, origin: string, browserState: string, salt = randomBytes(8).toString('hex')): string {
  const digest = createHash('sha256').update(`${clientId} ${origin} ${browserState} ${salt}`).digest('hex');
  return `${digest}.${salt}`;
}

interface CookieOptions {
  mountPath: string;
}

function setBrowserStateCookie(ctx: KoaContextWithOIDC, value: string, maxAgeMs: number, { mountPath }: CookieOptions): void {
  ctx.cookies.set(BROWSER_STATE_COOKIE, value, {
    // Readable by the iframe's script, below the realm only.
    httpOnly: false,
    signed: false,
    sameSite: 'lax',
    secure: ctx.secure,
    path: mountPath,
    overwrite: true,
    maxAge: maxAgeMs,
  });
}

/** The session's remaining lifetime, so the cookie does not outlive it. */
function remainingMs(ctx: KoaContextWithOIDC): number {
  const exp = (ctx.oidc.session as { exp?: number } | undefined)?.exp;
  return exp ? Math.max(0, exp * 1000 - Date.now()) : 0;
}

/**
 * Adds `session_state` to every successful authorization response of a signed-in session and keeps
 * the browser-state cookie in step; a logout clears it.
 */
export function installSessionManagement(provider: Provider, options: CookieOptions): void {
  provider.on('authorization.success', (ctx: KoaContextWithOIDC, out?: Record<string, unknown>) => {
    // The device flow succeeds without a redirect (no `out`): nothing to monitor there.
    const session = ctx.oidc.session;
    const redirectUri = ctx.oidc.params?.redirect_uri;
    const clientId = ctx.oidc.client?.clientId;
    if (!out || !session?.accountId || typeof redirectUri !== 'string' || !clientId) return;
    const browserState = browserStateOf(session.uid);
    setBrowserStateCookie(ctx, browserState, remainingMs(ctx), options);
    out.session_state = sessionStateFor(clientId, new URL(redirectUri).origin, browserState);
  });
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) => {
    // Our logout page always ends the whole session (logout=yes), as Keycloak does.
    setBrowserStateCookie(ctx, '', 0, options);
  });
}
