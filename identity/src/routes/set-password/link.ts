import { timingSafeEqual } from 'node:crypto';

import type { FastifyRequest } from 'fastify';

import type { ActionToken } from '../../accounts/action-tokens';
import { UPDATE_PASSWORD, type UserRecord, userLocale } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { DEFAULT_LOCALE, type Locale, LOCALE_PARAM, localeFromCookieHeader, parseLocale } from '../../i18n/locale';

/** Keycloak's path for the links of its action e-mails, relative to the realm. */
export const ACTION_TOKEN_PATH = '/login-actions/action-token';
export const CSRF_COOKIE = 'KC_ACTION_CSRF';

export interface ResolvedLink {
  token: ActionToken;
  user: UserRecord;
}

/** The link's user, if the link may still be used. */
export async function resolveLink({ actionTokens, users }: IdentityContext, key: string | null | undefined): Promise<ResolvedLink | undefined> {
  if (!key) return undefined;
  const token = await actionTokens.verify(key);
  if (!token || !token.actions.includes(UPDATE_PASSWORD)) return undefined;
  const user = users.get(token.sub);
  if (!user?.enabled || user.credentialVersion !== token.ver) return undefined;
  return { token, user };
}

/** `?kc_locale=`, else the user's own, else the locale cookie, else English. */
export function localeFor(request: FastifyRequest, user?: UserRecord): Locale {
  const query = request.query as Record<string, string | undefined>;
  return (
    parseLocale(query[LOCALE_PARAM]) ??
    (user ? parseLocale(userLocale(user)) : undefined) ??
    localeFromCookieHeader(request.headers.cookie) ??
    DEFAULT_LOCALE
  );
}

export function csrfCookie(cookiePath: string, value: string, maxAge?: number): string {
  return `${CSRF_COOKIE}=${value}; Path=${cookiePath}; HttpOnly; SameSite=Strict${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export const sameSecret = (a: string | undefined, b: string | undefined): boolean =>
  Boolean(a && b && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)));
