import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER, requestLogLevel, serializeRequest } from '@portal/service-kit';

/**
 * One `request completed` line per answer, as every portal server writes it (service-kit's
 * logRequests), with the request id (the API's, when it sent X-Request-Id) and the URL as the
 * client sent it (serialised before the provider mount rewrites it), masked by the portal's one
 * log policy: codes, tokens, the set-password key and the Cookie header never reach the log.
 * Listens on the socket's response, so answers oidc-provider writes itself are logged (and carry
 * the id) too. /healthz at debug.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const req = serializeRequest(request.raw);
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    reply.raw.once('finish', () => {
      const statusCode = reply.raw.statusCode;
      request.log[requestLogLevel({ method: req.method, url: req.url, statusCode })](
        { req, res: { statusCode }, responseTime: Math.round(reply.elapsedTime) },
        'request completed',
      );
    });
  });
}
