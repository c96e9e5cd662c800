import { useMemo, type ReactNode } from 'react';
import { SWRConfig, useSWRConfig, type ScopedMutator, type SWRConfiguration } from 'swr';
import { useApiClient } from '../api/use-api-client';
import { createFetcher } from './fetcher';
import { onErrorRetry, SWR_ERROR_RETRY_COUNT } from './retry';
import { forgetArrival, revalidateWhenOlderThan, SWR_CACHE_TIME_MS } from './revalidate-when-older';

/**
 * docs/requirements.md#limits-and-defaults data-fetching defaults.
 *
 * "Cache time 5 minutes": data fetched less than 5 minutes ago is shown from the cache when a
 * screen mounts again; older data is shown at once and revalidated (revalidateWhenOlderThan).
 * Entries are never evicted on a timer: a mounted hook would lose its data without refetching.
 * No refetch on window focus.
 */
export const PORTAL_SWR_DEFAULTS = {
  errorRetryCount: SWR_ERROR_RETRY_COUNT,
  onErrorRetry,
  revalidateOnFocus: false,
  use: [revalidateWhenOlderThan(SWR_CACHE_TIME_MS)],
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
  return (
    <SWRConfig value={config}>
      <MutateMakesStale>{children}</MutateMakesStale>
    </SWRConfig>
  );
}

/**
 * `useSWRConfig().mutate`, as every mutation hook calls it, also makes the keys it names stale,
 * so a list changed while unmounted is fetched again when its screen opens (revalidateWhenOlderThan).
 */
function MutateMakesStale({ children }: { children?: ReactNode }) {
  const { cache, mutate } = useSWRConfig();
  const value = useMemo(() => {
    const staleningMutate = ((...args: Parameters<ScopedMutator>) => {
      forgetArrival(cache, args[0]);
      return mutate(...args);
    }) as ScopedMutator;
    // Not in SWRConfiguration's type, but SWRConfig passes it on to useSWRConfig() below.
    return { mutate: staleningMutate } as SWRConfiguration;
  }, [cache, mutate]);
  return <SWRConfig value={value}>{children}</SWRConfig>;
}
