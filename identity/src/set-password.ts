import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type Provider from 'oidc-provider';
import type { Logger } from 'pino';

import type { ActionToken, ActionTokens } from './action-tokens';
import { addressKey } from './attempt-limiter';
import type { SignInGuard } from './brute-force';
import { readForm, sendHtml } from './http';
import { DEFAULT_LOCALE, type Locale, LOCALE_PARAM, localeFromCookieHeader, messagesFor, parseLocale } from './locale';
import type { MemoryStore } from './memory-store';
import { checkPassword } from './password-policy';
import { hashPassword } from './passwords';
import { normalizeEmail, UPDATE_PASSWORD, type UserRecord, type UserStore, userLocale } from './users';
import { createNonce, securityHeaders } from './views/html';
import { messagePage } from './views/message-page';
import { setPasswordPage } from './views/set-password-page';

/** Keycloak's path for the links of its action e-mails, relative to the realm. */
export const ACTION_TOKEN_PATH = '/login-actions/action-token';
const CSRF_COOKIE = 'KC_ACTION_CSRF';

export interface SetPasswordHandlerOptions {
  provider: Provider;
  mountPath: string;
  frontendOrigins: string[];
  logger: Logger;
  users: UserStore;
  actionTokens: ActionTokens;
  sessionStore: MemoryStore;
  /** How long the provider's sign-in session lasts (provider.ts). */
  sessionTtlSeconds: number;
  /**
   * Sign-in's brute-force detection: refused posts (bad or used links, forged forms) count per
   * client address, and forged forms also per account (under a key of their own, so someone
   * guessing the user's password cannot lock the user out of their invitation link).
   */
  guard: SignInGuard;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const sameSecret = (a: string | undefined, b: string | undefined): boolean =>
  Boolean(a && b && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)));

/**
 * The page behind the invitation link: the user sets a password and is signed in. The form is
 * protected twice: the action token in it is a secret only the mailbox holds, and a random value
 * in it must match a SameSite=Strict cookie set with the page, so another site cannot post the
 * form with its own link (signing the victim into the attacker's account). Opening the link does
 * not use it up (mail scanners open links); setting the password does.
 */
export function createSetPasswordHandler({
  provider,
  mountPath,
  frontendOrigins,
  logger,
  users,
  actionTokens,
  sessionStore,
  sessionTtlSeconds,
  guard,
}: SetPasswordHandlerOptions) {
  const action = `${mountPath}${ACTION_TOKEN_PATH}`;
  const cookiePath = `${mountPath}/login-actions`;

  const page = (res: ServerResponse, status: number, render: (nonce: string) => string, headers: Record<string, string | string[]> = {}) => {
    const nonce = createNonce();
    const html = render(nonce);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    sendHtml(res, status, html, securityHeaders({ nonce, frontendOrigins }));
  };

  const invalidLink = (res: ServerResponse, locale: Locale, status = 400, message?: string, headers: Record<string, string> = {}) => {
    const text = messagesFor(locale).setPassword;
    page(
      res,
      status,
      (nonce) => messagePage({ title: text.invalidLinkTitle, message: message ?? text.invalidLink, nonce, lang: locale }),
      headers,
    );
  };

  /** The token's user, if the link may still be used. */
  async function resolve(key: string | null | undefined): Promise<{ token: ActionToken; user: UserRecord } | undefined> {
    if (!key) return undefined;
    const token = await actionTokens.verify(key);
    if (!token || !token.actions.includes(UPDATE_PASSWORD)) return undefined;
    const user = users.get(token.sub);
    if (!user?.enabled || user.credentialVersion !== token.ver) return undefined;
    return { token, user };
  }

  const localeFor = (req: IncomingMessage, url: URL, user?: UserRecord): Locale =>
    parseLocale(url.searchParams.get(LOCALE_PARAM)) ??
    (user ? parseLocale(userLocale(user)) : undefined) ??
    localeFromCookieHeader(req.headers.cookie) ??
    DEFAULT_LOCALE;

  const csrfCookie = (value: string, maxAge?: number) =>
    `${CSRF_COOKIE}=${value}; Path=${cookiePath}; HttpOnly; SameSite=Strict${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;

  /** Signs the user in at the provider, so the portal's next authorization request needs no password. */
  async function startSession(req: IncomingMessage, res: ServerResponse, user: UserRecord): Promise<void> {
    const session = new provider.Session();
    session.loginAccount({ accountId: user.id, amr: ['pwd'] });
    await session.save(sessionTtlSeconds);
    // The library's own cookie, signed with its keys, exactly as its login would set it.
    const cookies = provider.app.createContext(req, res).cookies;
    const sessionCookie = (provider as unknown as { cookieName(type: string): string }).cookieName('session');
    cookies.set(sessionCookie, session.jti, {
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      expires: new Date((session.exp ?? Math.floor(Date.now() / 1000) + sessionTtlSeconds) * 1000),
    });
  }

  async function show(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const key = url.searchParams.get('key');
    const resolved = await resolve(key);
    if (!resolved) {
      invalidLink(res, localeFor(req, url));
      return;
    }
    const locale = localeFor(req, url, resolved.user);
    const csrf = randomBytes(24).toString('base64url');
    page(
      res,
      200,
      (nonce) => setPasswordPage({ action, nonce, key: key!, csrf, email: resolved.user.email, locale }),
      { 'Set-Cookie': csrfCookie(csrf) },
    );
  }

  async function submit(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const form = await readForm(req);
    const key = form.get('key') ?? '';
    const csrf = form.get('csrf') ?? '';
    const password = form.get('password') ?? '';
    const confirmation = form.get('confirmation') ?? '';
    const address = `address:${addressKey(req.socket.remoteAddress)}`;

    const resolved = await resolve(key);
    const locale = localeFor(req, url, resolved?.user);
    const text = messagesFor(locale).setPassword;
    const account = resolved ? `set-password:${resolved.user.id}` : undefined;
    // Checked before anything is hashed; verifying the link's signature above is cheap.
    const refusal = guard.check({ account, address });
    if (refusal) {
      const wait = refusal.retryAfterSeconds;
      logger.warn({ address, limit: refusal.reason }, 'set-password refused: too many failed attempts');
      const message = text.tooManyAttempts(Math.ceil(wait / 60));
      if (resolved) {
        page(res, 429, (nonce) => setPasswordPage({ action, nonce, key, csrf, email: resolved.user.email, locale, error: message }), {
          'Retry-After': String(wait),
        });
      } else {
        invalidLink(res, locale, 429, message, { 'Retry-After': String(wait) });
      }
      return;
    }
    if (!resolved) {
      guard.fail({ address });
      logger.info({ address }, 'set-password refused: invalid, expired or used link');
      invalidLink(res, locale);
      return;
    }
    if (!sameSecret(readCookie(req.headers.cookie, CSRF_COOKIE), csrf)) {
      guard.fail({ account, address });
      logger.warn({ address, sub: resolved.user.id }, 'set-password refused: form without its cookie');
      page(res, 403, (nonce) => messagePage({ title: text.title, message: text.staleForm, nonce, lang: locale }));
      return;
    }
    const { user, token } = resolved;
    const problems = checkPassword({ password, confirmation, email: user.email, username: user.username });
    if (problems.password || problems.confirmation) {
      page(res, 400, (nonce) => setPasswordPage({ action, nonce, key, csrf, email: user.email, locale, problems }));
      return;
    }
    // Claimed before the slow hash, so two posts of the same form cannot both set a password.
    if (!actionTokens.use(token)) {
      invalidLink(res, locale);
      return;
    }
    const passwordHash = await hashPassword(password);
    const current = users.get(user.id);
    if (!current?.enabled || current.credentialVersion !== token.ver) {
      invalidLink(res, locale);
      return;
    }
    // The mailbox owner proved they read the mail, as Keycloak records for action e-mails.
    users.setPasswordHash(user.id, passwordHash, { emailVerified: true });
    // A new password from the mailbox's owner: guesses at the old one no longer matter.
    guard.clear(`set-password:${user.id}`);
    guard.clear(`account:${normalizeEmail(user.email)}`);
    // Whoever held the old password (if any) is signed out everywhere.
    sessionStore.forgetAccount(user.id);
    await startSession(req, res, user);
    res.appendHeader('Set-Cookie', csrfCookie('', 0));
    logger.info({ sub: user.id }, 'password set through action link; user signed in');

    const target = token.redirectUri && frontendOrigins.includes(new URL(token.redirectUri).origin) ? token.redirectUri : undefined;
    if (target) {
      res.writeHead(303, { Location: target, 'Cache-Control': 'no-store' }).end();
      return;
    }
    page(res, 200, (nonce) => messagePage({ title: text.doneTitle, message: text.done, nonce, lang: locale }));
  }

  return async function handleSetPassword(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' || req.method === 'HEAD') {
      await show(req, res, url);
      return;
    }
    if (req.method === 'POST') {
      await submit(req, res, url);
      return;
    }
    res.writeHead(405, { Allow: 'GET, HEAD, POST' }).end();
  };
}
