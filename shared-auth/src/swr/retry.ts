import type { SWRConfiguration } from 'swr';
import { ApiError, TokenNotFoundError } from '../api/errors';

/** docs/requirements.md#limits-and-defaults: 3 retries, exponential backoff capped at 30 s. */
export const SWR_ERROR_RETRY_COUNT = 3;
export const SWR_RETRY_BASE_DELAY_MS = 1_000;
export const SWR_RETRY_MAX_DELAY_MS = 30_000;

/** 1 s, 2 s, 4 s, … never more than 30 s. `retryCount` starts at 1, as SWR passes it. */
export function retryDelay(retryCount: number): number {
  return Math.min(
    SWR_RETRY_BASE_DELAY_MS * 2 ** Math.max(0, retryCount - 1),
    SWR_RETRY_MAX_DELAY_MS,
  );
}

/**
 * Only failures that may go away by themselves are retried: network errors, 5xx, 408, 429.
 * A 4xx (including 401, and 403/404 as NotFoundError) or a missing token gives the same answer again.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof TokenNotFoundError) return false;
  if (error instanceof ApiError) {
    return error.status >= 500 || error.status === 408 || error.status === 429;
  }
  return true;
}

export const onErrorRetry: NonNullable<SWRConfiguration['onErrorRetry']> = (
  error,
  _key,
  config,
  revalidate,
  { retryCount },
) => {
  if (!isRetryable(error)) return;
  if (retryCount > (config.errorRetryCount ?? SWR_ERROR_RETRY_COUNT)) return;
  setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount));
};
