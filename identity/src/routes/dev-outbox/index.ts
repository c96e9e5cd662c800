import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

import type { IdentityContext } from '../../context';
import type { Outbox } from '../../mail/mailer';
import { allowOnly } from '../../http/methods';
import { outboxPage } from './page';

/** Where the local outbox is browsable, at the server root (not under the realm). */
export const OUTBOX_PATH = '/dev/outbox';

/**
 * The mails the provider would have sent, in development without SMTP (config.ts refuses the
 * outbox elsewhere: it shows live set-password links to whoever opens it).
 */
export async function devOutboxRoutes(app: FastifyInstance, { outbox, pages }: IdentityContext & { outbox: Outbox }) {
  const page: RouteHandlerMethod = async (_request, reply) =>
    pages.send(reply, 200, (frame) => outboxPage(frame, { mails: outbox.list(), jsonHref: `${OUTBOX_PATH}.json` }));
  const json: RouteHandlerMethod = async (_request, reply) => reply.send(outbox.list());
  allowOnly(app, OUTBOX_PATH, { GET: page, HEAD: page });
  allowOnly(app, `${OUTBOX_PATH}.json`, { GET: json, HEAD: json });
}
