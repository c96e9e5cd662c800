import type { FastifyReply, FastifyRequest } from 'fastify';

import { KC_IDP_HINT } from '../../broker/brokered-login';
import type { IdentityContext } from '../../context';
import { handOver } from '../../http/hand-over';
import { type Locale, messagesFor } from '../../i18n/locale';
import type { InteractionDetails } from './details';
import { showSignIn } from './sign-in';

/**
 * The sign-in step through an external provider: with `kc_idp_hint` naming a brokered provider
 * the browser goes there instead of seeing the form (once per interaction); back from it, the
 * linked account is signed in, or the form says why not (the password stays a way in).
 * False when the interaction has nothing to do with brokering (nothing was sent).
 */
export async function brokeredSignIn(
  context: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  details: InteractionDetails,
  locale: Locale,
): Promise<boolean> {
  const { brokeredLogins, provider, securityHeaders } = context;
  const outcome = brokeredLogins.takeOutcome(details.uid);
  if (outcome && 'accountId' in outcome) {
    const { req, res } = handOver(request, reply, securityHeaders);
    await provider.interactionFinished(req, res, { login: { accountId: outcome.accountId } }, { mergeWithLastSubmission: false });
    return true;
  }
  if (outcome) {
    const text = messagesFor(locale).signIn;
    const error = { failed: text.brokerFailed, not_linked: text.brokerNotLinked, disabled: text.brokerDisabled }[outcome.failure];
    await showSignIn(context, reply, details.uid, locale, { error });
    return true;
  }
  const hint = details.params[KC_IDP_HINT];
  const idp = typeof hint === 'string' ? brokeredLogins.provider(hint) : undefined;
  if (!idp || brokeredLogins.tried(details.uid)) return false;
  const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
  await reply.redirect(brokeredLogins.start(idp, details.uid, loginHint), 303);
  return true;
}
