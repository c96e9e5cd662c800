/** Fixed texts and names of the API's error answers, for clients that react to them. */
export const NOT_FOUND = 'Not found.';
export const CSRF_FAILED = 'CSRF token missing or incorrect.';
export const USER_NOT_REGISTERED = 'User is not registered.';
export const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';
export const INVALID_TOKEN = 'Invalid or expired token.';
export const PERMISSION_DENIED = 'You do not have permission to perform this action.';
export const INTERNAL_ERROR = 'Internal server error.';
/** Key of a 400 answer's errors that belong to no single field (e.g. a body that is not JSON). */
export const NON_FIELD_ERRORS = 'non_field_errors';

/** Double-submit XSRF pair: the API sets the cookie, unsafe requests echo it in the header. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
