import type { SessionStatusValue } from '@portal/contract';
import { LRUCache } from 'lru-cache';
import type { OwnedSessionKey } from '../../repositories/session-repository';

/** Bounds memory: about one entry per learner with a launch screen open; LRU makes room. */
const STATUS_CACHE_MAX = 20_000;

export interface SessionStatusCache {
  /** The polled status of `key`, from memory while fresh, else from `load` (null: not found). */
  read(
    key: OwnedSessionKey,
    load: (key: OwnedSessionKey) => Promise<SessionStatusValue | null>,
  ): Promise<SessionStatusValue | null>;
  /** Called after every committed status change. */
  forget(uuids: readonly string[]): void;
}

/**
 * How long a polled status may be answered from memory: `ttlMs` (0: never). Every status change of
 * a use case drops its entries after commit, so with one API process (PGlite is always one) the
 * cache is exact; with several processes on PostgreSQL another process's change shows after at
 * most this. `now`: the cache's time in milliseconds (the app's clock, which tests move).
 */
export function createSessionStatusCache(ttlMs: number, now?: () => number): SessionStatusCache {
  const entries = new LRUCache<string, { key: OwnedSessionKey; status: SessionStatusValue }>({
    max: STATUS_CACHE_MAX,
    // Unused when ttlMs is 0: read() then loads every time.
    ttl: Math.max(ttlMs, 1),
    ...(now ? { perf: { now } } : {}),
    ttlResolution: 0,
  });
  return {
    async read(key, load) {
      if (ttlMs <= 0) return load(key);
      const hit = entries.get(key.uuid);
      if (hit) {
        const same = hit.key.userId === key.userId && hit.key.productId === key.productId;
        // Another learner's (or product's) uuid is "not found", exactly as the query would say.
        return same ? hit.status : null;
      }
      const status = await load(key);
      if (status !== null) entries.set(key.uuid, { key: { ...key }, status });
      return status;
    },
    forget(uuids) {
      for (const uuid of uuids) entries.delete(uuid);
    },
  };
}
