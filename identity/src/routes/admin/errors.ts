import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

import { UserConflictError } from '../../accounts/users';
import { HttpError } from '../../http/errors';
import { REALM_MANAGEMENT_CLIENT } from '../../oidc/keycloak-claims';

/** Keycloak's error bodies: `{errorMessage}`, a field error `{field, errorMessage, params}`. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    /** The Allow header of a 405. */
    readonly allow?: string,
  ) {
    super(String(body.errorMessage ?? body.error ?? status));
  }
}

export const fieldError = (field: string, errorMessage: string, value?: unknown) =>
  new AdminError(400, { field, errorMessage, params: value === undefined ? [field] : [field, value] });
export const notFound = () => new AdminError(404, { error: 'User not found' });

/** Fastify's refusals of a body, in the admin API's words. */
const BODY_ERRORS: Record<string, () => AdminError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AdminError(413, { error: 'Request body too large.' }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new AdminError(415, { error: 'Expected an application/json body.' }),
};

function adminErrorOf(error: unknown): AdminError | undefined {
  if (error instanceof AdminError) return error;
  if (error instanceof UserConflictError) return new AdminError(409, { errorMessage: error.message });
  if (error instanceof HttpError) return new AdminError(error.status, { error: error.message });
  const code = (error as Partial<FastifyError> | undefined)?.code;
  return code ? BODY_ERRORS[code]?.() : undefined;
}

/** The admin API's error handler: Keycloak's bodies and headers; anything else is a fault. */
export function answerAdminError(error: unknown, _request: FastifyRequest, reply: FastifyReply) {
  const refusal = adminErrorOf(error);
  if (!refusal) throw error;
  const headers: Record<string, string> = {};
  if (refusal.status === 401) headers['WWW-Authenticate'] = `Bearer realm="${REALM_MANAGEMENT_CLIENT}"`;
  if (refusal.allow) headers.Allow = refusal.allow;
  return reply.code(refusal.status).headers(headers).send(refusal.body);
}
