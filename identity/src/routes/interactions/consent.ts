import type { FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { handOver } from '../../http/hand-over';
import { HttpError } from '../../http/errors';
import type { InteractionDetails } from './details';

interface MissingGrants {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

/** Only reached if loadExistingGrant did not cover the request: grants what is missing, no screen. */
export async function finishConsent(
  { provider, securityHeaders }: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  details: InteractionDetails,
): Promise<void> {
  const { prompt, params, session, grantId } = details;
  const accountId = session?.accountId;
  const clientId = typeof params.client_id === 'string' ? params.client_id : undefined;
  if (!accountId || !clientId) throw new HttpError(400, 'Interaction has no signed-in user.');
  const grant = (grantId ? await provider.Grant.find(grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
  const missing = prompt.details as MissingGrants;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const result = { consent: { grantId: await grant.save() } };
  const { req, res } = handOver(request, reply, securityHeaders);
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}
