import { SESSION_STATUSES, type SessionStatusValue } from '@portal/contract';
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
  /**
   * Called after committed status changes whose new status is known (this process's own, and
   * other processes' change notices): a held status moves to it, only ever forward.
   */
  advance(changes: readonly StatusChange[]): void;
  /** A session this process has just created: its first poll need not ask the database. */
  remember(key: OwnedSessionKey, status: SessionStatusValue): void;
  /** Called after a committed change whose outcome is not known here: drops what is held. */
  forget(uuids: readonly string[]): void;
  /** Drops every status (change notices may have been missed). */
  forgetAll(): void;
}

export interface StatusChange {
  uuid: string;
  status: SessionStatusValue;
}

/**
 * A session's statuses only move forward (not_started → in_progress → complete → closed), so a
 * change notice that arrives after a later change was already applied is recognised as old.
 */
const rank = (status: SessionStatusValue) => SESSION_STATUSES.indexOf(status);

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
  onLookup?: (result: 'hit' | 'miss' | 'shared') => void,
): SessionStatusCache {
  const entries = new LRUCache<string, { key: OwnedSessionKey; status: SessionStatusValue }>({
    max: STATUS_CACHE_MAX,
    // Unused when ttlMs is 0: read() then loads every time.
    ttl: Math.max(ttlMs, 1),
    ...(now ? { perf: { now } } : {}),
    ttlResolution: 0,
  });
  // The load under way of each uuid, which may store its answer and which the session's other
  // reads meanwhile wait for: a forget of that uuid (a change made here or announced by another
  // process) takes it away, since the load may have read before the change, and the reads after
  // it load afresh. Per uuid, not one counter for all: at a few changes a second anywhere, a
  // global counter let almost no load under load store its answer. Shared, not one load per read:
  // when loads queued for the pool longer than a poll's period, every poll of a session started
  // its own (1 000 learners: 43 % hits, the pool's wait over a second, api/README).
  const loading = new Map<
    string,
    { ticket: symbol; key: OwnedSessionKey; answer: Promise<SessionStatusValue | null> }
  >();
  const sameOwner = (a: OwnedSessionKey, b: OwnedSessionKey) =>
    a.userId === b.userId && a.productId === b.productId;
  return {
    async read(key, load) {
      const reuse = ttlMs > 0 && reusable();
      if (!reuse) return load(key);
      const hit = entries.get(key.uuid);
      // Another learner's (or product's) uuid is "not found", exactly as the query would say.
      if (hit) {
        onLookup?.('hit');
        return sameOwner(hit.key, key) ? hit.status : null;
      }
      const under = loading.get(key.uuid);
      if (under && sameOwner(under.key, key)) {
        onLookup?.('shared');
        return under.answer;
      }
      onLookup?.('miss');
      const ticket = Symbol(key.uuid);
      const current = () => loading.get(key.uuid)?.ticket === ticket;
      const answer = load(key)
        .then((status) => {
          if (status !== null && current()) entries.set(key.uuid, { key: { ...key }, status });
          return status;
        })
        .finally(() => {
          if (current()) loading.delete(key.uuid);
        });
      loading.set(key.uuid, { ticket, key: { ...key }, answer });
      return answer;
    },
    advance(changes) {
      for (const { uuid, status } of changes) {
        // A load under way may have read before the change: it neither stores nor is waited for.
        loading.delete(uuid);
        const held = entries.get(uuid);
        if (held && rank(status) > rank(held.status)) entries.set(uuid, { key: held.key, status });
      }
    },
    remember(key, status) {
      if (ttlMs === 0) return;
      loading.delete(key.uuid);
      entries.set(key.uuid, { key: { ...key }, status });
    },
    forget(uuids) {
      for (const uuid of uuids) {
        loading.delete(uuid);
        entries.delete(uuid);
      }
    },
    forgetAll() {
      loading.clear();
      entries.clear();
    },
  };
}
