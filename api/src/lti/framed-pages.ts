import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * onSend hook for the LTI routes whose HTML pages run in a learning platform's frame: each such
 * page says in its own CSP (frame-ancestors) who may frame it, and the API's default
 * X-Frame-Options DENY — filled in by the root's hook, which runs before a plugin's — cannot name
 * origins, so it goes. Other answers (JSON, redirects) keep it.
 */
export async function dropFrameOptionsOfPages(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
) {
  if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
    reply.removeHeader('x-frame-options');
  }
  return payload;
}
