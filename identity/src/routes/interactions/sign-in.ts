import type { FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { formOf } from '../../http/forms';
import { handOver } from '../../http/hand-over';
import { type Locale, messagesFor } from '../../i18n/locale';
import { normalizeEmail } from '../../accounts/users';
import { addressKey } from '../../security/attempt-limiter';
import { isRefusal } from '../../security/brute-force';
import type { InteractionDetails } from './details';
import { signInPage } from './sign-in-page';

export interface SignInForm {
  email?: string;
  error?: string;
}

export function showSignIn(
  { pages, mountPath }: IdentityContext,
  reply: FastifyReply,
  uid: string,
  locale: Locale,
  { email, error }: SignInForm = {},
  status = 200,
  headers: Record<string, string> = {},
) {
  const action = `${mountPath}/interaction/${uid}/login`;
  return pages.send(reply, status, (frame) => signInPage(frame, { action, locale, email, error }), headers);
}

/**
 * Checks a posted email and password against the brute-force guard and the user store; signs the
 * user in, or shows the form again with why not.
 */
export async function submitSignIn(
  context: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  details: InteractionDetails,
  locale: Locale,
) {
  const { guard, logger, users, provider, securityHeaders } = context;
  const { uid } = details;
  const form = formOf(request);
  const email = form.get('email')?.trim() ?? '';
  const password = form.get('password') ?? '';
  const address = addressKey(request.raw.socket.remoteAddress);
  const text = messagesFor(locale).signIn;
  // Counted by the email as typed (normalised), known or not, so a refusal never tells whether
  // the account exists.
  const attempt = guard.begin({ account: `account:${normalizeEmail(email)}`, address: `address:${address}` });
  if (isRefusal(attempt)) {
    // Refused before the password is hashed: a locked account or a capped address costs the
    // provider nothing, so a flood of guesses cannot take its CPU from everyone else.
    logger.warn({ interaction: uid, address, limit: attempt.reason }, 'sign-in refused: too many failed attempts');
    context.metrics.signIns.inc({ outcome: attempt.reason === 'account' ? 'locked' : 'capped' });
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    const error = attempt.reason === 'account' ? text.accountLocked(minutes) : text.tooManyAttempts(minutes);
    return showSignIn(context, reply, uid, locale, { email, error }, 429, { 'Retry-After': String(attempt.retryAfterSeconds) });
  }
  // The attempt already counts as failed (guard.begin), so posts racing this one during the
  // hash see it; only the right password takes it back.
  const account = await users.verifyCredentials(email, password);
  if (!account) {
    attempt.failed();
    context.metrics.signIns.inc({ outcome: 'invalid_credentials' });
    logger.info({ interaction: uid, address }, 'sign-in refused: invalid credentials');
    return showSignIn(context, reply, uid, locale, { email, error: text.invalidCredentials });
  }
  // The owner got in: earlier typos should not shorten their next attempts (Keycloak also
  // clears a user's failures on success). The address keeps its earlier failures: otherwise an
  // attacker with any account of their own could sign in now and then to keep guessing others'.
  attempt.succeeded();
  context.metrics.signIns.inc({ outcome: 'succeeded' });
  logger.info({ interaction: uid, sub: account.id }, 'user signed in');
  const { req, res } = handOver(request, reply, securityHeaders);
  await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
  return reply;
}
