import type { FastifyReply, FastifyRequest } from 'fastify';

import { checkPassword } from '../../accounts/password-policy';
import { normalizeEmail, type UserRecord, userLocale } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { HttpError } from '../../http/errors';
import { formOf } from '../../http/forms';
import { handOver } from '../../http/hand-over';
import { DEFAULT_LOCALE, type Locale, LOCALE_PARAM, localeFromCookieHeader, messagesFor, parseLocale } from '../../i18n/locale';
import { addressKey } from '../../security/attempt-limiter';
import { isRefusal } from '../../security/brute-force';
import type { InteractionDetails } from './details';
import { UPDATE_PASSWORD_PROMPT, type UpdatePasswordResult } from './kc-action';
import { updatePasswordPage, type UpdatePasswordPageOptions } from './update-password-page';

/** The signed-in user the action is for; the prompt only comes after sign-in. */
function accountOf({ users }: IdentityContext, details: InteractionDetails): UserRecord {
  const account = details.session?.accountId ? users.get(details.session.accountId) : undefined;
  if (!account?.enabled) throw new HttpError(400, 'Interaction has no signed-in user.');
  return account;
}

const firstOf = (value: unknown): string | undefined => (typeof value === 'string' ? value.trim().split(/\s+/)[0] : undefined);

/**
 * The portal's language (`kc_locale` or the first of `ui_locales`, as Keycloak takes them), else
 * the user's, the cookie's, English.
 */
function localeOf(request: FastifyRequest, details: InteractionDetails, account: UserRecord): Locale {
  return (
    parseLocale(firstOf(details.params[LOCALE_PARAM])) ??
    parseLocale(firstOf(details.params.ui_locales)) ??
    parseLocale(userLocale(account)) ??
    localeFromCookieHeader(request.headers.cookie) ??
    DEFAULT_LOCALE
  );
}

function sendPage(
  { pages, mountPath }: IdentityContext,
  reply: FastifyReply,
  details: InteractionDetails,
  options: Omit<UpdatePasswordPageOptions, 'action'>,
  status = 200,
  headers: Record<string, string> = {},
) {
  const action = `${mountPath}/interaction/${details.uid}/update-password`;
  return pages.send(reply, status, (frame) => updatePasswordPage(frame, { action, ...options }), headers);
}

export function showUpdatePassword(context: IdentityContext, request: FastifyRequest, reply: FastifyReply, details: InteractionDetails) {
  const account = accountOf(context, details);
  return sendPage(context, reply, details, { email: account.email, locale: localeOf(request, details, account) });
}

async function finish(context: IdentityContext, request: FastifyRequest, reply: FastifyReply, result: UpdatePasswordResult) {
  const { req, res } = handOver(request, reply, context.securityHeaders);
  await context.provider.interactionFinished(req, res, { [UPDATE_PASSWORD_PROMPT]: result }, { mergeWithLastSubmission: true });
  return reply;
}

/**
 * Cancel goes back to the portal unchanged. Otherwise the current password is checked under
 * sign-in's brute-force guard (same account and address counters: a stolen session cannot
 * guess the password here faster than at the sign-in page), the new one against the policy.
 */
export async function submitUpdatePassword(context: IdentityContext, request: FastifyRequest, reply: FastifyReply, details: InteractionDetails) {
  const { guard, logger, users } = context;
  const account = accountOf(context, details);
  const locale = localeOf(request, details, account);
  const text = messagesFor(locale).updatePassword;
  const form = formOf(request);
  const log = { interaction: details.uid, sub: account.id };
  if (form.get('cancel')) {
    logger.info(log, 'password change cancelled');
    return finish(context, request, reply, { status: 'cancelled' });
  }
  const current = form.get('current') ?? '';
  const password = form.get('password') ?? '';
  const confirmation = form.get('confirmation') ?? '';
  const page = { email: account.email, locale };
  const policy = checkPassword({ password, confirmation, email: account.email, username: account.username });
  if (!current) return sendPage(context, reply, details, { ...page, problems: { current: 'missing', ...policy } }, 400);

  const address = addressKey(request.raw.socket.remoteAddress);
  const attempt = guard.begin({ account: `account:${normalizeEmail(account.email)}`, address: `address:${address}` });
  if (isRefusal(attempt)) {
    logger.warn({ ...log, address, limit: attempt.reason }, 'password change refused: too many failed attempts');
    const error = text.tooManyAttempts(Math.ceil(attempt.retryAfterSeconds / 60));
    return sendPage(context, reply, details, { ...page, error }, 429, { 'Retry-After': String(attempt.retryAfterSeconds) });
  }
  const verified = await users.verifyCredentials(account.email, current);
  if (!verified) {
    attempt.failed();
    logger.info({ ...log, address }, 'password change refused: wrong current password');
    return sendPage(context, reply, details, { ...page, problems: { current: 'wrong', ...policy } }, 400);
  }
  attempt.succeeded();
  if (policy.password || policy.confirmation) return sendPage(context, reply, details, { ...page, problems: policy }, 400);

  const passwordHash = await users.hashPassword(password);
  // Only if nothing changed during the hash (another tab's change, a disabled account).
  const now = users.get(account.id);
  if (!now?.enabled || now.passwordHash !== verified.passwordHash) {
    return sendPage(context, reply, details, { ...page, problems: { current: 'wrong' } }, 409);
  }
  users.setPasswordHash(account.id, passwordHash);
  logger.info(log, 'password changed');
  return finish(context, request, reply, { status: 'success' });
}
