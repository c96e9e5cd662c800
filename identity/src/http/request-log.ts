import type { FastifyInstance } from 'fastify';
import { serializeRequest } from '@portal/service-kit';

/**
 * One `request` line per answer, with the URL as the client sent it (serialised before the
 * provider mount rewrites it) and masked by the portal's one log policy: codes, tokens, the
 * set-password key and the Cookie header never reach the log. Listens on the socket's response,
 * so answers oidc-provider writes itself are logged too.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const started = process.hrtime.bigint();
    const req = serializeRequest(request.raw);
    reply.raw.once('finish', () => {
      app.log.info(
        { req, status: reply.raw.statusCode, ms: Number((process.hrtime.bigint() - started) / 1_000_000n) },
        'request',
      );
    });
  });
}
