import type { FieldErrors } from '@portal/contract';
import { NOT_FOUND } from '@portal/contract';

/**
 * An error whose status and body are meant for the client. Anything else that reaches the error
 * handler is a bug and answers a bare 500.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
    this.name = 'ApiError';
  }
}

export const detailError = (statusCode: number, detail: string) =>
  new ApiError(statusCode, { detail });
export const notFound = (detail = NOT_FOUND) => detailError(404, detail);
export const forbidden = (detail: string) => detailError(403, detail);
export const unauthorized = (detail: string) => detailError(401, detail);
export const badRequest = (errors: FieldErrors) => new ApiError(400, errors);
/** A single field's error, e.g. `fieldError('language', 'Select a valid choice.')`. */
export const fieldError = (field: string, message: string) => badRequest({ [field]: [message] });

/** The value, or a 404 when the row is gone (e.g. the user was deleted mid-request). */
export function orNotFound<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw notFound();
  return value;
}
