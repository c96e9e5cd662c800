import { TOKEN_NOT_FOUND_MESSAGE } from '../constants';

/** A response the API client does not turn into a result: 401, 403/404 (as NotFoundError), 5xx... */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    message = `Request failed with status ${status}`,
  ) {
    super(message);
  }
}

/**
 * 404, and 403 too (docs/requirements.md#permissions: the wrapper hides what a user may not see). `status` is always 404;
 * `originalStatus` keeps what the server said.
 */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
  constructor(
    body: unknown,
    readonly originalStatus: 403 | 404 = 404,
  ) {
    super(404, body, 'Not found');
  }
}

/** 401: the stored token has already been cleared when this is thrown. */
export class UnauthorizedError extends ApiError {
  override readonly name: string = 'UnauthorizedError';
  constructor(body: unknown) {
    super(401, body, 'Unauthorized');
  }
}

/** No access token could be had; the request was not sent. */
export class TokenNotFoundError extends Error {
  override readonly name: string = 'TokenNotFoundError';
  constructor() {
    super(TOKEN_NOT_FOUND_MESSAGE);
  }
}
