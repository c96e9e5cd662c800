import type { FastifyReply } from 'fastify';

import { DEFAULT_ACTION_LIFESPAN_SECONDS, MAX_ACTION_LIFESPAN_SECONDS } from '../../accounts/action-tokens';
import { SUPPORTED_REQUIRED_ACTIONS, type UserRecord, userLocale } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { parseLocale } from '../../i18n/locale';
import { invitationMail } from '../../mail/invitation-mail';
import { CLIENT_ID } from '../../oidc/provider';
import { ACTION_TOKEN_PATH } from '../set-password/link';
import { jsonOf } from './body';
import { AdminError } from './errors';
import { nonNegativeInteger, type SearchQuery } from './search';
import { type AdminRequest, existingUser, searchQuery, type UserParams } from './users';

/** Where the user goes after the action: only the portals this provider signs in for. */
function redirectTarget(query: SearchQuery, frontendOrigins: string[]): { clientId?: string; redirectUri?: string } {
  const { client_id: clientId, redirect_uri: redirectUri } = query;
  if (redirectUri && !clientId) throw new AdminError(400, { errorMessage: 'Client id missing' });
  if (clientId && clientId !== CLIENT_ID) throw new AdminError(400, { errorMessage: "Client doesn't exist" });
  if (redirectUri) {
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      throw new AdminError(400, { errorMessage: 'Invalid redirect uri.' });
    }
    if (!frontendOrigins.includes(url.origin) || url.hash) throw new AdminError(400, { errorMessage: 'Invalid redirect uri.' });
  }
  return { ...(clientId ? { clientId } : {}), ...(redirectUri ? { redirectUri } : {}) };
}

/** The list of required actions in the body, all of them ones this provider carries out. */
function requiredActionsOf(body: unknown, user: UserRecord): string[] {
  if (!Array.isArray(body) || body.length === 0 || !body.every((action) => typeof action === 'string')) {
    throw new AdminError(400, { errorMessage: 'Provide the required actions as a non-empty list' });
  }
  const unsupported = body.filter((action) => !SUPPORTED_REQUIRED_ACTIONS.includes(action));
  if (unsupported.length > 0) throw new AdminError(400, { errorMessage: 'Provided invalid required actions' });
  if (!user.enabled) throw new AdminError(400, { errorMessage: 'User is disabled' });
  if (!user.email) throw new AdminError(400, { errorMessage: 'User email missing' });
  return body as string[];
}

/** Keycloak's execute-actions e-mail: a signed link to the set-password page, by mail. */
export async function executeActionsEmail(context: IdentityContext, request: AdminRequest, reply: FastifyReply) {
  const { users, actionTokens, mailer, productName, logger, issuer, frontendOrigins } = context;
  const body = jsonOf(request);
  const user = existingUser(users, (request.params as UserParams).id);
  const actions = requiredActionsOf(body, user);
  const query = searchQuery(request);
  const lifespan = nonNegativeInteger(query, 'lifespan', DEFAULT_ACTION_LIFESPAN_SECONDS);
  if (lifespan < 1 || lifespan > MAX_ACTION_LIFESPAN_SECONDS) {
    throw new AdminError(400, { errorMessage: `lifespan must be between 1 and ${MAX_ACTION_LIFESPAN_SECONDS} seconds` });
  }
  const target = redirectTarget(query, frontendOrigins);
  const key = await actionTokens.create({ sub: user.id, actions, ver: user.credentialVersion, ...target }, lifespan);
  const link = `${new URL(issuer).origin}${context.mountPath}${ACTION_TOKEN_PATH}?key=${encodeURIComponent(key)}`;
  const { firstName, lastName } = user;
  const locale = parseLocale(userLocale(user));
  const mail = invitationMail({ productName, firstName, lastName, link, lifespanSeconds: lifespan, locale });
  try {
    await mailer.send({ to: user.email, ...mail });
  } catch (error) {
    logger.error({ err: error, sub: user.id }, 'could not send the execute-actions e-mail');
    throw new AdminError(500, { errorMessage: 'Failed to send execute actions email' });
  }
  logger.info({ sub: user.id, by: request.caller.clientId, actions, lifespan }, 'execute-actions e-mail sent');
  return reply.code(204).send();
}
