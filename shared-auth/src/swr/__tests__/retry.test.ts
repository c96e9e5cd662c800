import type { SWRConfiguration } from 'swr';
import { ApiError, NotFoundError, TokenNotFoundError, UnauthorizedError } from '../../api/errors';
import { isRetryable, onErrorRetry, retryDelay } from '../retry';

type RetryArgs = Parameters<NonNullable<SWRConfiguration['onErrorRetry']>>;

function retry(error: unknown, retryCount: number) {
  const revalidate = jest.fn(async () => true);
  const config = { errorRetryCount: 3 } as RetryArgs[2];
  onErrorRetry(error, '/api/v1/report', config, revalidate, { retryCount, dedupe: false });
  return revalidate;
}

afterEach(() => jest.useRealTimers());

it('backs off exponentially and never waits more than 30 s', () => {
  expect([1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([
    1000, 2000, 4000, 8000, 16000, 30000, 30000,
  ]);
});

it('retries server and network failures after the backoff delay', () => {
  jest.useFakeTimers();
  const revalidate = retry(new ApiError(503, null), 2);

  jest.advanceTimersByTime(1999);
  expect(revalidate).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(revalidate).toHaveBeenCalledWith({ retryCount: 2 });

  expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
});

it('stops after 3 retries', () => {
  jest.useFakeTimers();
  const revalidate = retry(new ApiError(500, null), 4);
  jest.advanceTimersByTime(60_000);
  expect(revalidate).not.toHaveBeenCalled();
});

it.each([
  ['a NotFoundError (403/404)', new NotFoundError(null, 403)],
  ['a 401', new UnauthorizedError(null)],
  ['a 400', new ApiError(400, {})],
  ["'Token not found'", new TokenNotFoundError()],
])('does not retry %s', (_name, error) => {
  jest.useFakeTimers();
  const revalidate = retry(error, 1);
  jest.advanceTimersByTime(60_000);
  expect(revalidate).not.toHaveBeenCalled();
});
