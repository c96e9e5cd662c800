import { useMemo, type ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { useApiClient } from '../api/use-api-client';
import { createFetcher } from './fetcher';
import { onErrorRetry, SWR_ERROR_RETRY_COUNT } from './retry';

/**
 * docs/requirements.md#limits-and-defaults data-fetching defaults.
 *
 * "Cache time 5 minutes" comes from react-query's cacheTime (how long unused data is kept).
 * SWR has no such timer: its cache keeps every entry for the life of the page, which is at
 * least 5 minutes, and stale entries are shown at once and revalidated when a component mounts
 * (`revalidateIfStale`). Evicting entries on a timer is not safe in SWR (a mounted hook would
 * lose its data without refetching), so we keep SWR's behaviour.
 */
export const PORTAL_SWR_DEFAULTS = {
  errorRetryCount: SWR_ERROR_RETRY_COUNT,
  onErrorRetry,
  revalidateOnFocus: false,
  revalidateIfStale: true,
  // SWR's default: identical requests within 2 s share one fetch.
  dedupingInterval: 2_000,
} satisfies SWRConfiguration;

export interface PortalSWRConfigProps {
  children?: ReactNode;
  /** Overrides, e.g. `{ provider: () => new Map() }` for an isolated cache in tests. */
  value?: SWRConfiguration;
}

/** Place inside AuthProvider: the default fetcher is the authenticated API client's GET. */
export function PortalSWRConfig({ children, value }: PortalSWRConfigProps) {
  const client = useApiClient();
  const config = useMemo<SWRConfiguration>(
    () => ({ ...PORTAL_SWR_DEFAULTS, fetcher: createFetcher(client), ...value }),
    [client, value],
  );
  return <SWRConfig value={config}>{children}</SWRConfig>;
}
