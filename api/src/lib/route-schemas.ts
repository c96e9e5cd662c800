import { Detail, FieldErrors } from '@portal/contract';

/** Error answers every authenticated route can give; spread into a route's `response`. */
export const errorResponses = {
  400: FieldErrors,
  401: Detail,
  403: Detail,
  404: Detail,
} as const;
