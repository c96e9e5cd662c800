import { useEffect } from 'react';
import { unstable_serialize, useSWRConfig, type Cache, type Middleware } from 'swr';

/** docs/requirements.md#limits-and-defaults "cache time 5 minutes" (issue #25, point 5). */
export const SWR_CACHE_TIME_MS = 5 * 60_000;

interface Use {
  /** Screens showing the key now. */
  screens: number;
  /** When the last screen showing it closed. */
  leftAt: number;
}

/** How each key is used, per SWR cache (tests and pages each have their own). */
const usesByCache = new WeakMap<Cache, Map<string, Use>>();

function usesOf(cache: Cache): Map<string, Use> {
  let uses = usesByCache.get(cache);
  if (!uses) {
    uses = new Map();
    usesByCache.set(cache, uses);
  }
  return uses;
}

/**
 * react-query's "cache time" in SWR, which keeps every entry for the life of the page: data no
 * screen has shown for `maxAgeMs` is dropped when a screen asks for it again, so that screen
 * loads it afresh instead of showing old data first. Younger data is shown at once and, as
 * always in the portal, revalidated on mount (`revalidateIfStale`). Entries a screen shows are
 * never dropped: the hook would lose its data without refetching.
 */
export function dropUnusedAfter(maxAgeMs: number): Middleware {
  return (useSWRNext) => (key, fetcher, config) => {
    const { cache } = useSWRConfig();
    const uses = usesOf(cache);
    const serialized = unstable_serialize(key);
    const use = serialized ? uses.get(serialized) : undefined;
    if (serialized && use && use.screens === 0 && Date.now() - use.leftAt >= maxAgeMs) {
      cache.delete(serialized);
      uses.delete(serialized);
    }
    useEffect(() => {
      if (!serialized) return undefined;
      const current = uses.get(serialized) ?? { screens: 0, leftAt: 0 };
      current.screens += 1;
      uses.set(serialized, current);
      return () => {
        current.screens -= 1;
        current.leftAt = Date.now();
      };
    }, [serialized, uses]);
    return useSWRNext(key, fetcher, config);
  };
}
