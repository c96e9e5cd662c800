import type { FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { HttpError } from '../../http/errors';
import { formOf } from '../../http/forms';
import { handOver } from '../../http/hand-over';
import type { Locale } from '../../i18n/locale';
import { DEVICE_PROMPT, type DeviceConfirmResult, type DevicePromptDetails } from '../device-flow';
import { deviceConfirmPage } from '../device-flow/pages';
import type { InteractionDetails } from './details';

/** "Allow the device to sign in as …?", after sign-in, so the page can name the user. */
export function showDeviceConfirm(
  { users, pages, mountPath }: IdentityContext,
  reply: FastifyReply,
  details: InteractionDetails,
  locale: Locale,
) {
  const account = details.session?.accountId ? users.get(details.session.accountId) : undefined;
  if (!account) throw new HttpError(400, 'Interaction has no signed-in user.');
  const { userCode } = details.prompt.details as DevicePromptDetails;
  return pages.send(reply, 200, (frame) =>
    deviceConfirmPage(frame, {
      action: `${mountPath}/interaction/${details.uid}/device`,
      locale,
      name: [account.firstName, account.lastName].filter(Boolean).join(' ') || account.email,
      email: account.email,
      userCode,
    }),
  );
}

export async function finishDeviceConfirm(
  { provider, logger, securityHeaders }: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  details: InteractionDetails,
): Promise<void> {
  const decision = formOf(request).get('decision');
  const log = { interaction: details.uid, sub: details.session?.accountId };
  if (decision === 'allow') {
    const approved: DeviceConfirmResult = { approved: true };
    logger.info(log, 'device allowed');
    const { req, res } = handOver(request, reply, securityHeaders);
    await provider.interactionFinished(req, res, { [DEVICE_PROMPT]: approved }, { mergeWithLastSubmission: true });
    return;
  }
  if (decision === 'deny') {
    logger.info(log, 'device denied');
    // The library records this on the device code, so the device's next poll gets access_denied.
    const denied = { error: 'access_denied', error_description: 'End-User denied the device sign-in' };
    const { req, res } = handOver(request, reply, securityHeaders);
    await provider.interactionFinished(req, res, denied, { mergeWithLastSubmission: false });
    return;
  }
  throw new HttpError(400, 'Expected decision "allow" or "deny".');
}
