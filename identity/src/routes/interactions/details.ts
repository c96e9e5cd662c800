import type { FastifyRequest, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';

export type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The interaction this browser's cookie names, if it is the one in the URL. The uid in the path
 * doubles as the anti-forgery token: it is random, only this browser knows it, and it must match
 * the interaction named by the SameSite=Lax cookie; a different uid is a stale tab.
 */
export async function interactionFor(
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
): Promise<InteractionDetails | undefined> {
  try {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    return details.uid === uid ? details : undefined;
  } catch (error) {
    if (error instanceof errors.SessionNotFound) return undefined;
    throw error;
  }
}
