import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { allowOnly } from '../../http/methods';
import { INTERACTION_PATH } from '../../oidc/provider';
import { messagePage } from '../../views/message-page';

interface EndpointParams {
  alias: string;
}

const ALIAS = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_PARAM_LENGTH = 4096;

/** The first value of each query parameter, bounded: what the provider sent back. */
function callbackQuery(request: FastifyRequest): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const name of ['code', 'state', 'error', 'error_description']) {
    const raw = (request.query as Record<string, string | string[] | undefined>)[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.length <= MAX_PARAM_LENGTH) query[name] = value;
  }
  return query;
}

/**
 * Keycloak's broker endpoint `{realm}/broker/{alias}/endpoint`: the external provider's answer
 * to a brokered sign-in. The outcome is kept for the interaction, and the browser goes back to
 * the interaction's page, where the interaction cookie (whose path ends there) proves it is the
 * browser that started it; that page finishes the sign-in or shows why not.
 */
export async function brokerRoutes(app: FastifyInstance, context: IdentityContext) {
  const { mountPath, pages, brokeredLogins } = context;

  const endpoint = async (request: FastifyRequest, reply: FastifyReply) => {
    const { alias } = request.params as EndpointParams;
    const done = ALIAS.test(alias) ? await brokeredLogins.complete(alias, callbackQuery(request)) : null;
    if (!done) {
      return pages.send(reply, 400, (frame) =>
        messagePage(frame, {
          title: 'Sign-in expired',
          message: 'This sign-in is unknown or has expired. Return to the application and sign in again.',
        }),
      );
    }
    return reply.redirect(`${mountPath}${INTERACTION_PATH}/${done.uid}`, 303);
  };
  allowOnly(app, `${mountPath}/broker/:alias/endpoint`, { GET: endpoint });
}
