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
  /** Drops every status (change notices may have been missed). */
  forgetAll(): void;
}

/**
 * How long a polled status may be answered from memory: `ttlMs` (0: never). Every status change of
 * a use case drops its entries after commit, and on PostgreSQL another process's change arrives
 * as a change notice (plugins/app/change-notices.ts) that drops it too; `reusable` is false while
 * those notices cannot be heard, and every read loads then. `now`: the cache's time in
 * milliseconds (the app's clock, which tests move).
 */
export function createSessionStatusCache(
  ttlMs: number,
  now?: () => number,
  reusable: () => boolean = () => true,
  onLookup?: (hit: boolean) => void,
): SessionStatusCache {
  const entries = new LRUCache<string, { key: OwnedSessionKey; status: SessionStatusValue }>({
    max: STATUS_CACHE_MAX,
    // Unused when ttlMs is 0: read() then loads every time.
    ttl: Math.max(ttlMs, 1),
    ...(now ? { perf: { now } } : {}),
    ttlResolution: 0,
  });
  // The load of each uuid that may store its answer: a forget of that uuid (a change made here
  // or announced by another process) takes it away, since the load may have read before the
  // change. Per uuid, not one counter for all: at a few changes a second anywhere, a global
  // counter let almost no load under load store its answer, and every poll went to the database.
  const storable = new Map<string, symbol>();
  return {
    async read(key, load) {
      const reuse = ttlMs > 0 && reusable();
      if (!reuse) return load(key);
      const hit = entries.get(key.uuid);
      onLookup?.(hit !== undefined);
      if (hit) {
        const same = hit.key.userId === key.userId && hit.key.productId === key.productId;
        // Another learner's (or product's) uuid is "not found", exactly as the query would say.
        return same ? hit.status : null;
      }
      const ticket = Symbol(key.uuid);
      storable.set(key.uuid, ticket);
      try {
        const status = await load(key);
        if (status !== null && storable.get(key.uuid) === ticket) {
          entries.set(key.uuid, { key: { ...key }, status });
        }
        return status;
      } finally {
        if (storable.get(key.uuid) === ticket) storable.delete(key.uuid);
      }
    },
    forget(uuids) {
      for (const uuid of uuids) {
        storable.delete(uuid);
        entries.delete(uuid);
      }
    },
    forgetAll() {
      storable.clear();
      entries.clear();
    },
  };
}
