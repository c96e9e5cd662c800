import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { cacheLookupCounter, type CacheLookup } from '../../metrics/api-metrics';
import type { AuthUser } from '../../repositories/user-repository';
import type { ChangeNotice } from '../../db/change-notices';

/**
 * How long the auth hook may reuse a user it loaded. Every learner polls whoami and the session
 * status every second, and loading the user with their permissions is the costliest query of
 * either request (~1 ms of PGlite, see api/bench): reusing it for a few seconds takes most of
 * that off the polled routes. Changes through this process's services show at once (they call
 * `forget`); this time bounds how long a change straight in SQL goes unseen. This is the time to
 * live with PGlite (one process, no change notices); PostgreSQL has its own, below.
 */
export const AUTH_USER_TTL_MS = 5_000;
/**
 * The time to live on PostgreSQL, where every write to what the cache holds is announced by a
 * trigger (0030) whoever makes it, and reuse stops while the notices cannot be heard: the time to
 * live then bounds only what a lost notice could cost, and what changes with time alone — nothing
 * does: no field of AuthUser is read against the clock (findAuthUser's query compares nothing with
 * now(), and test/plugins/app/auth-cache.test.ts fails if it starts to). A user whose field one day
 * depends on the time needs an entry that ends when that field would read differently (a per-entry
 * `ttl` on `set`), not a shorter time to live for everyone. Every polling learner costs one
 * background load per 80 % of this (every 4 min, ~4 loads/s at 1 000 learners; at 30 s it was ~42/s
 * and at 5 s ~250/s, each holding a pool connection for about one event-loop turn under load:
 * api/docs/latency-journal.md, "Night: connections accepted one per turn").
 */
export const AUTH_USER_TTL_NOTICED_MS = 300_000;
/**
 * A user found older than this share of the time to live (and its spread, below) is still
 * answered from memory, and loaded again in the background for the next request. A learner
 * polling every second then never finds the entry expired, so whoami and the session status never
 * wait for a pool connection behind slower statements (api/README.md, "Where the time goes"),
 * while no answer is ever older than the time to live. Late in the time to live, so a poller's
 * user is loaded about as often as the time to live alone would (every 4–4.5 s of 5 with PGlite,
 * every 4–4.5 min of 5 on PostgreSQL), with at least a tenth of it as slack for the load.
 */
export const AUTH_USER_REFRESH_SHARE = 0.8;
/**
 * Each entry's refresh point is drawn once, when it is stored, between that share and this much
 * more of the time to live (80–90 %). Users loaded together (a class signing in at once, 1 000 at a
 * bench's start) would otherwise all be loaded again in the same second, every 4 minutes on
 * PostgreSQL: the burst that accepted tokens made every minute (api/docs/latency-journal.md,
 * "Night: a token check every minute, all at once"), with a statement each instead of a signature
 * check.
 */
export const AUTH_USER_REFRESH_SPREAD = 0.1;
/** Bounds memory: at most this many users are held; the least recently used makes room. */
export const AUTH_USER_CACHE_SIZE = 10_000;

/** PostgreSQL announces every change (change notices); PGlite relies on the services' forgets. */
export function authUserTtlMs(kind: 'postgres' | 'pglite'): number {
  return kind === 'postgres' ? AUTH_USER_TTL_NOTICED_MS : AUTH_USER_TTL_MS;
}

export interface AuthUserCache {
  /**
   * The user a token's `sub` names, reused for up to the time to live. Frozen, because every
   * request of that user shares the object. Unknown users are not remembered, so a user
   * registered a moment ago can sign in at once.
   */
  get(sub: string): Promise<AuthUser | null>;
  /** Drops the user after a write to them (role, deletion, preference, Brightspace link). */
  forget(userId: string): void;
  /**
   * Drops every user, after a change to an organisation (its name, its deactivation or
   * reactivation) that its members' next request must see at once. Rare, so all of them.
   */
  forgetAll(): void;
  /** Drops the members of an organisation (its name or activation changed). */
  forgetOrganisation(organisationId: number): void;
}

/** What was forgotten while one load was under way. */
interface Forgotten {
  all: boolean;
  users: Set<string>;
  organisations: Set<number>;
}

/** A held user, and the time left to live under which a request loads it again. */
interface Entry {
  user: AuthUser;
  refreshBelowMs: number;
}

const newForgotten = (): Forgotten => ({ all: false, users: new Set(), organisations: new Set() });
const overtakenAtAll = (f: Forgotten) => f.all || f.users.size > 0 || f.organisations.size > 0;

export function createAuthUserCache(
  load: (sub: string) => Promise<AuthUser | null>,
  options: {
    ttlMs?: number;
    now?: () => number;
    /** False while reuse cannot be trusted (change notices not heard): every get loads. */
    reusable?: () => boolean;
    /** Each get's outcome: hit, miss (loaded) or shared (waited for a load under way). */
    onLookup?: CacheLookup;
  } = {},
): AuthUserCache {
  const reusable = options.reusable ?? (() => true);
  const ttlMs = options.ttlMs ?? AUTH_USER_TTL_MS;
  const cache = new LRUCache<string, Entry>({
    max: AUTH_USER_CACHE_SIZE,
    ttl: Math.max(ttlMs, 1),
    ...(options.now ? { perf: { now: options.now } } : {}),
    ttlResolution: 0,
  });
  /**
   * What was forgotten while each load was under way: a load that read before a write to its
   * user must not store what it read. Recorded per load rather than as one counter for all, so a
   * write to one user does not throw away every other user's load that overlapped it.
   */
  const loads = new Set<Forgotten>();
  /** Background loads under way, one per user at most. */
  const refreshing = new Set<string>();
  /**
   * Loads on a miss under way, by sub: the user's other requests meanwhile (whoami and the status
   * poll arrive together) wait for it rather than load too — after a restart or a flush every
   * polling user missed at once, twice.
   */
  const missing = new Map<string, { forgotten: Forgotten; answer: Promise<AuthUser | null> }>();

  /** Loads `sub` and keeps what it found unless a forget of that user came in between. */
  const loadAndKeep = async (
    sub: string,
    reuse: boolean,
    forgotten: Forgotten = newForgotten(),
  ) => {
    loads.add(forgotten);
    let user: AuthUser | null;
    try {
      user = await load(sub);
    } finally {
      loads.delete(forgotten);
    }
    const overtaken =
      forgotten.all ||
      forgotten.users.has(sub) ||
      (user !== null &&
        (forgotten.users.has(user.id) ||
          (user.organisationId !== null && forgotten.organisations.has(user.organisationId))));
    if (overtaken) return user;
    cache.delete(sub);
    if (user && ttlMs > 0 && reuse) {
      Object.freeze(user.permissions);
      const refreshShare = AUTH_USER_REFRESH_SHARE + AUTH_USER_REFRESH_SPREAD * Math.random();
      cache.set(sub, { user: Object.freeze(user), refreshBelowMs: ttlMs * (1 - refreshShare) });
    }
    return user;
  };

  const refreshAhead = (sub: string) => {
    if (refreshing.has(sub)) return;
    refreshing.add(sub);
    // A failed refresh leaves the entry to expire; the next request then loads and sees the error.
    loadAndKeep(sub, true)
      .catch(() => undefined)
      .finally(() => refreshing.delete(sub));
  };

  return {
    async get(sub) {
      const reuse = reusable();
      const hit = reuse ? cache.get(sub) : undefined;
      if (hit) {
        options.onLookup?.('hit');
        if (cache.getRemainingTTL(sub) < hit.refreshBelowMs) refreshAhead(sub);
        return hit.user;
      }
      // Shared only while nothing at all was forgotten since it started: it may have read before.
      const under = reuse ? missing.get(sub) : undefined;
      if (under && !overtakenAtAll(under.forgotten)) {
        options.onLookup?.('shared');
        return under.answer;
      }
      options.onLookup?.('miss');
      if (!reuse) return loadAndKeep(sub, false);
      const forgotten = newForgotten();
      const answer: Promise<AuthUser | null> = loadAndKeep(sub, true, forgotten).finally(() => {
        if (missing.get(sub)?.answer === answer) missing.delete(sub);
      });
      missing.set(sub, { forgotten, answer });
      return answer;
    },
    // Entries are keyed by the token's sub, which is not the user's id for accounts made through
    // the identity provider's admin API; a write to a user drops every entry that is that user.
    forget(userId) {
      for (const forgotten of loads) forgotten.users.add(userId);
      cache.delete(userId);
      for (const [key, { user }] of cache.entries()) if (user.id === userId) cache.delete(key);
    },
    forgetAll() {
      for (const forgotten of loads) forgotten.all = true;
      cache.clear();
    },
    forgetOrganisation(organisationId) {
      for (const forgotten of loads) forgotten.organisations.add(organisationId);
      for (const [key, { user }] of cache.entries()) {
        if (user.organisationId === organisationId) cache.delete(key);
      }
    },
  };
}

/** What another process's change means for the users held here. */
function forgetNoticed(cache: AuthUserCache, notice: ChangeNotice) {
  if (notice.kind === 'user') cache.forget(notice.id);
  else if (notice.kind === 'organisation') cache.forgetOrganisation(notice.id);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in users the auth hook reuses; services forget the ones they change. */
    authUsers: AuthUserCache;
  }
}

export const authUserCachePlugin = fp(
  async (app) => {
    // On the main pool, not the polled reads' connections: every poller's user is loaded again
    // in the background (refresh-ahead: every 4 s with PGlite; on PostgreSQL, every 4 min since
    // the time to live is 5 min, it was ~200 loads/s at 1 000 learners with 5 s), which there
    // queued the status polls' misses for seconds (api/README, "Rolling restart", evening).
    const cache = createAuthUserCache((sub) => app.repos.users.findAuthUser(sub), {
      ttlMs: authUserTtlMs(app.db.kind),
      now: () => app.clock.now().getTime(),
      reusable: () => app.changeNotices.live,
      onLookup: cacheLookupCounter(app.metrics, 'auth_user'),
    });
    app.changeNotices.subscribe({
      onNotice: (notice) => forgetNoticed(cache, notice),
      flush: () => cache.forgetAll(),
    });
    app.decorate('authUsers', cache);
  },
  { name: 'auth-user-cache', dependencies: ['repositories', 'clock', 'change-notices'] },
);
