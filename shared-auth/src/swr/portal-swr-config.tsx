import { useMemo, type ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { useApiClient } from '../api/use-api-client';
import { createFetcher } from './fetcher';
import { dropUnusedAfter, SWR_CACHE_TIME_MS } from './drop-unused-after';
import { onErrorRetry, SWR_ERROR_RETRY_COUNT } from './retry';

/**
 * docs/requirements.md#limits-and-defaults data-fetching defaults.
 *
 * "Cache time 5 minutes" is react-query's cacheTime: how long data no screen shows is kept.
 * SWR keeps every entry for the life of the page, so dropUnusedAfter drops data unused for 5
 * minutes when a screen asks for it again (it loads afresh). Data in the cache is shown at once
 * and revalidated when a screen mounts (`revalidateIfStale`); never on window focus.
 */
export const PORTAL_SWR_DEFAULTS = {
  errorRetryCount: SWR_ERROR_RETRY_COUNT,
  onErrorRetry,
  revalidateOnFocus: false,
  revalidateIfStale: true,
  use: [dropUnusedAfter(SWR_CACHE_TIME_MS)],
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
