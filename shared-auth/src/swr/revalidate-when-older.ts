import { unstable_serialize, useSWRConfig, type Cache, type Key, type Middleware } from 'swr';

/** docs/requirements.md#limits-and-defaults "cache time 5 minutes" (issue #25, point 5). */
export const SWR_CACHE_TIME_MS = 5 * 60_000;

interface Arrival {
  key: Key;
  at: number;
}

/** When each key's data last arrived, per SWR cache (tests and pages each have their own). */
const arrivalsByCache = new WeakMap<Cache, Map<string, Arrival>>();

function arrivalsOf(cache: Cache): Map<string, Arrival> {
  let arrivals = arrivalsByCache.get(cache);
  if (!arrivals) {
    arrivals = new Map();
    arrivalsByCache.set(cache, arrivals);
  }
  return arrivals;
}

/**
 * SWR revalidates cached data on every mount (`revalidateIfStale`) or never; the spec wants
 * data younger than `maxAgeMs` served from the cache and older data fetched again when a screen
 * uses it. This middleware notes when a key's data arrives and turns `revalidateIfStale` on only
 * once that is `maxAgeMs` ago. An explicit `revalidateOnMount` (signed image URLs) still wins.
 */
export function revalidateWhenOlderThan(maxAgeMs: number): Middleware {
  return (useSWRNext) => (key, fetcher, config) => {
    const { cache } = useSWRConfig();
    const arrivals = arrivalsOf(cache);
    const serialized = unstable_serialize(key);
    const timedFetcher =
      fetcher &&
      ((...args: Parameters<typeof fetcher>) => {
        const result = fetcher(...args);
        void Promise.resolve(result).then(
          () => arrivals.set(serialized, { key, at: Date.now() }),
          () => undefined,
        );
        return result;
      });
    const arrival = arrivals.get(serialized);
    const stale = arrival === undefined || Date.now() - arrival.at >= maxAgeMs;
    return useSWRNext(key, timedFetcher, { ...config, revalidateIfStale: stale });
  };
}

/**
 * Makes the data of `key` (or of every key the filter accepts) stale. SWR's `mutate` refetches
 * only keys a mounted screen uses; a list changed while nobody shows it must not then be served
 * from the cache when its screen opens again.
 */
export function forgetArrival(cache: Cache, key: Key | ((key: Key) => boolean)): void {
  const arrivals = arrivalsOf(cache);
  if (typeof key !== 'function') {
    arrivals.delete(unstable_serialize(key));
    return;
  }
  for (const [serialized, arrival] of arrivals) if (key(arrival.key)) arrivals.delete(serialized);
}
