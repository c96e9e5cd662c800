import type { IncomingMessage, ServerResponse } from 'node:http';

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecurityHeaders } from '@portal/service-kit';

/**
 * Hands the raw request and response to code that writes the answer itself (oidc-provider's
 * callback and its interactionFinished redirects). Fastify's onSend hooks do not run then, so the
 * default security headers are filled in when the library writes its head.
 */
export function handOver(
  request: FastifyRequest,
  reply: FastifyReply,
  headers: SecurityHeaders,
): { req: IncomingMessage; res: ServerResponse } {
  reply.hijack();
  headers.middleware(request.raw, reply.raw);
  return { req: request.raw, res: reply.raw };
}
