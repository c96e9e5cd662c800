import { useMemo } from 'react';
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import { useApiClient } from '../api/use-api-client';
import { createFetcher } from './fetcher';

/**
 * GET `path` through SWR (the path, query string included, is the cache key); `null` waits.
 * Errors: NotFoundError (403/404), UnauthorizedError (401), ApiError (400 and others).
 */
export function useApi<T>(
  path: string | null,
  config?: SWRConfiguration<T, Error>,
): SWRResponse<T, Error> {
  const client = useApiClient();
  // Own fetcher so the hook works even without PortalSWRConfig around it.
  const fetcher = useMemo(() => createFetcher(client), [client]);
  return useSWR<T, Error>(path, (key: string) => fetcher<T>(key), config);
}
