import type { FastifyInstance, FastifyReply } from 'fastify';
import { setBindingCookie } from './binding-cookie';
import { createBrokerStore } from './broker-store';

/**
 * Lets this browser sign in by the launch (issue #22 point 1): a fresh broker binding in its
 * cookie, once and for minutes. Called by the launch's answer and by a redeemed "Open in a new
 * window" ticket, the two places a browser proves it holds the launch. Answers the alias the host
 * passes as `kc_idp_hint` (the launch page's `idp`), or undefined while no broker is configured.
 */
export async function bindBrokerSignIn(
  app: FastifyInstance,
  reply: FastifyReply,
  launchId: string,
): Promise<string | undefined> {
  const broker = app.config.ltiBroker;
  if (!broker) return undefined;
  const binding = await createBrokerStore(app.db).bind(launchId);
  setBindingCookie(reply, binding, app.config.portalUrl);
  return broker.alias;
}
