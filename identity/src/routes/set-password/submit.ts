import type { FastifyReply, FastifyRequest } from 'fastify';

import { checkPassword } from '../../accounts/password-policy';
import { normalizeEmail } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { formOf } from '../../http/forms';
import { type Locale, messagesFor } from '../../i18n/locale';
import { addressKey } from '../../security/attempt-limiter';
import { messagePage } from '../../views/message-page';
import { CSRF_COOKIE, csrfCookie, localeFor, readCookie, type ResolvedLink, resolveLink, sameSecret } from './link';
import { setPasswordPage } from './page';
import { startProviderSession } from './session';

export function invalidLink(
  { pages }: IdentityContext,
  reply: FastifyReply,
  locale: Locale,
  status = 400,
  message?: string,
  headers: Record<string, string> = {},
) {
  const text = messagesFor(locale).setPassword;
  return pages.send(reply, status, (frame) => messagePage(frame, { title: text.invalidLinkTitle, message: message ?? text.invalidLink, lang: locale }), headers);
}

interface Posted {
  key: string;
  csrf: string;
  password: string;
  confirmation: string;
}

interface Form {
  action: string;
  cookiePath: string;
}

/**
 * Refused posts (bad or used links, forged forms) count per client address with sign-in's
 * guard, and forged forms also per account (under a key of their own, so someone guessing the
 * user's password cannot lock the user out of their invitation link).
 */
export async function submitPassword(context: IdentityContext, form: Form, request: FastifyRequest, reply: FastifyReply) {
  const { guard, logger, pages } = context;
  const fields = formOf(request);
  const posted: Posted = {
    key: fields.get('key') ?? '',
    csrf: fields.get('csrf') ?? '',
    password: fields.get('password') ?? '',
    confirmation: fields.get('confirmation') ?? '',
  };
  const address = `address:${addressKey(request.raw.socket.remoteAddress)}`;
  const resolved = await resolveLink(context, posted.key);
  const locale = localeFor(request, resolved?.user);
  const text = messagesFor(locale).setPassword;
  const account = resolved ? `set-password:${resolved.user.id}` : undefined;
  // Checked before anything is hashed; verifying the link's signature above is cheap.
  const refusal = guard.check({ account, address });
  if (refusal) {
    const wait = refusal.retryAfterSeconds;
    logger.warn({ address, limit: refusal.reason }, 'set-password refused: too many failed attempts');
    const error = text.tooManyAttempts(Math.ceil(wait / 60));
    const headers = { 'Retry-After': String(wait) };
    if (!resolved) return invalidLink(context, reply, locale, 429, error, headers);
    const page = { action: form.action, key: posted.key, csrf: posted.csrf, email: resolved.user.email, locale, error };
    return pages.send(reply, 429, (frame) => setPasswordPage(frame, page), headers);
  }
  if (!resolved) {
    guard.fail({ address });
    logger.info({ address }, 'set-password refused: invalid, expired or used link');
    return invalidLink(context, reply, locale);
  }
  if (!sameSecret(readCookie(request.headers.cookie, CSRF_COOKIE), posted.csrf)) {
    guard.fail({ account, address });
    logger.warn({ address, sub: resolved.user.id }, 'set-password refused: form without its cookie');
    return pages.send(reply, 403, (frame) => messagePage(frame, { title: text.title, message: text.staleForm, lang: locale }));
  }
  return setPassword(context, form, request, reply, { resolved, posted, locale });
}

/** The form is genuine: checks the password against the policy, sets it and signs the user in. */
async function setPassword(
  context: IdentityContext,
  form: Form,
  request: FastifyRequest,
  reply: FastifyReply,
  { resolved, posted, locale }: { resolved: ResolvedLink; posted: Posted; locale: Locale },
) {
  const { actionTokens, users, guard, sessionStore, logger, pages, frontendOrigins } = context;
  const { user, token } = resolved;
  const text = messagesFor(locale).setPassword;
  const problems = checkPassword({ password: posted.password, confirmation: posted.confirmation, email: user.email, username: user.username });
  if (problems.password || problems.confirmation) {
    const page = { action: form.action, key: posted.key, csrf: posted.csrf, email: user.email, locale, problems };
    return pages.send(reply, 400, (frame) => setPasswordPage(frame, page));
  }
  // Claimed before the slow hash, so two posts of the same form cannot both set a password.
  if (!actionTokens.use(token)) return invalidLink(context, reply, locale);
  const passwordHash = await users.hashPassword(posted.password);
  const current = users.get(user.id);
  if (!current?.enabled || current.credentialVersion !== token.ver) return invalidLink(context, reply, locale);
  // The mailbox owner proved they read the mail, as Keycloak records for action e-mails.
  users.setPasswordHash(user.id, passwordHash, { emailVerified: true });
  // A new password from the mailbox's owner: guesses at the old one no longer matter.
  guard.clear(`set-password:${user.id}`);
  guard.clear(`account:${normalizeEmail(user.email)}`);
  // Whoever held the old password (if any) is signed out everywhere.
  sessionStore.forgetAccount(user.id);
  await startProviderSession(context, request, reply, user);
  reply.header('Set-Cookie', csrfCookie(form.cookiePath, '', 0));
  logger.info({ sub: user.id }, 'password set through action link; user signed in');

  const target = token.redirectUri && frontendOrigins.includes(new URL(token.redirectUri).origin) ? token.redirectUri : undefined;
  if (target) return reply.code(303).headers({ Location: target, 'Cache-Control': 'no-store' }).send();
  return pages.send(reply, 200, (frame) => messagePage(frame, { title: text.doneTitle, message: text.done, lang: locale }));
}
