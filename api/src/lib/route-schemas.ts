import { Detail, FieldErrors, Forbidden } from '@portal/contract';

/** Error answers every authenticated route can give; spread into a route's `response`. */
export const errorResponses = {
  400: FieldErrors,
  401: Detail,
  // With `code` and `organisation` when the caller's organisation is deactivated.
  403: Forbidden,
  404: Detail,
} as const;
