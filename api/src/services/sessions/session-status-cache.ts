import type { SessionStatusValue } from '@portal/contract';
import type { OwnedSessionKey } from '../../repositories/session-repository';

/** Bounds memory: about one entry per learner with a launch screen open. */
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
 * How long a polled status may be answered from memory: `ttlMs`. Every status change of a use case
 * drops its entries after commit, so with one API process (PGlite is always one) the cache is
 * exact; with several processes on PostgreSQL another process's change shows after at most this.
 */
export function createSessionStatusCache(ttlMs: number): SessionStatusCache {
  const entries = new Map<
    string,
    { key: OwnedSessionKey; status: SessionStatusValue; until: number }
  >();
  return {
    async read(key, load) {
      if (ttlMs <= 0) return load(key);
      const hit = entries.get(key.uuid);
      if (hit && hit.until > Date.now()) {
        const same = hit.key.userId === key.userId && hit.key.productId === key.productId;
        // Another learner's (or product's) uuid is "not found", exactly as the query would say.
        return same ? hit.status : null;
      }
      const status = await load(key);
      if (status !== null) {
        if (entries.size >= STATUS_CACHE_MAX) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
        entries.delete(key.uuid);
        entries.set(key.uuid, { key: { ...key }, status, until: Date.now() + ttlMs });
      }
      return status;
    },
    forget(uuids) {
      for (const uuid of uuids) entries.delete(uuid);
    },
  };
}
