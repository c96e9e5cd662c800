import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** A refused request: answered as `{error: 'invalid_request', error_description}` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Fastify's own refusals of a body, in the words the provider has always used. */
const BODY_ERRORS: Record<string, HttpError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: new HttpError(413, 'Request body too large.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: new HttpError(400, 'Invalid Content-Length.'),
};

/** The HttpError a thrown value stands for, if it is a refusal rather than a fault. */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  const code = (error as Partial<FastifyError> | undefined)?.code;
  return code ? BODY_ERRORS[code] : undefined;
}

/** The root error handler: refusals as OAuth-style JSON, faults logged and answered 500. */
export function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const refusal = asHttpError(error);
  if (refusal) {
    return reply.code(refusal.status).send({ error: 'invalid_request', error_description: refusal.message });
  }
  request.log.error({ err: error }, 'unhandled request error');
  const body = { error: 'server_error', error_description: 'Internal error.' };
  if (reply.raw.headersSent) {
    reply.raw.destroy();
    return undefined;
  }
  if (reply.sent) {
    // Handed over to oidc-provider (http/hand-over.ts), which failed before it answered.
    reply.raw
      .writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(JSON.stringify(body));
    return undefined;
  }
  return reply.code(500).send(body);
}
