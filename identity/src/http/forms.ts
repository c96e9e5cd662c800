import type { FastifyInstance, FastifyRequest } from 'fastify';

import { HttpError } from './errors';

const FORM_TYPE = 'application/x-www-form-urlencoded';
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * Bodies are parsed only where a route asks for them (formOf): a form is read into
 * URLSearchParams, anything else is left unread, so a route that ignores its body (or hands the
 * request on to oidc-provider, which reads it itself) never refuses one.
 */
export function acceptForms(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
    done(null, new URLSearchParams(body as string));
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
}

/** The posted form; anything but `application/x-www-form-urlencoded` is refused (415). */
export function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams)) {
    throw new HttpError(415, 'Expected an application/x-www-form-urlencoded body.');
  }
  return request.body;
}
