import type { FastifyInstance, FastifyRequest } from 'fastify';

import { AdminError } from './errors';

const JSON_TYPE = 'application/json';
const JSON_LIMIT_BYTES = 64 * 1024;

/**
 * JSON bodies up to 64 KiB, parsed only where a route reads one (jsonOf), so a GET or DELETE
 * with a stray body is not refused, and after the caller was authenticated (onRequest).
 */
export function acceptJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string', bodyLimit: JSON_LIMIT_BYTES }, (_request, body, done) => {
    try {
      done(null, { json: JSON.parse(body as string) as unknown });
    } catch {
      done(new AdminError(400, { error: 'unknown_error', errorMessage: 'The request body is not valid JSON.' }), undefined);
    }
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
}

/** The posted JSON; anything but `application/json` is refused (415). */
export function jsonOf(request: FastifyRequest): unknown {
  const body = request.body as { json?: unknown } | undefined;
  if (!body || !('json' in body)) throw new AdminError(415, { error: 'Expected an application/json body.' });
  return body.json;
}
