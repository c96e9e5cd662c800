import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { AuthUser } from '../../repositories/user-repository';

/**
 * How long the auth hook may reuse a user it loaded. Every learner polls whoami and the session
 * status every second, and loading the user with their permissions is the costliest query of
 * either request (~1 ms of PGlite, see api/bench): reusing it for a few seconds takes most of
 * that off the polled routes. A change made by another API process, or straight in SQL, shows
 * within this time; changes through the services show at once (they call `forget`).
 */
export const AUTH_USER_TTL_MS = 5_000;
/** Bounds memory: at most this many users are held; the least recently used makes room. */
export const AUTH_USER_CACHE_SIZE = 10_000;

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
}

export function createAuthUserCache(
  load: (sub: string) => Promise<AuthUser | null>,
  options: { ttlMs?: number; now?: () => number } = {},
): AuthUserCache {
  const ttlMs = options.ttlMs ?? AUTH_USER_TTL_MS;
  const cache = new LRUCache<string, AuthUser>({
    max: AUTH_USER_CACHE_SIZE,
    ttl: Math.max(ttlMs, 1),
    ...(options.now ? { perf: { now: options.now } } : {}),
    ttlResolution: 0,
  });
  // Bumped by every forget: a lookup that overlapped a write must not store what it may have
  // read before the write.
  let generation = 0;
  return {
    async get(sub) {
      const hit = cache.get(sub);
      if (hit) return hit;
      const seen = generation;
      const user = await load(sub);
      cache.delete(sub);
      if (user && ttlMs > 0 && seen === generation) {
        Object.freeze(user.permissions);
        cache.set(sub, Object.freeze(user));
      }
      return user;
    },
    // Entries are keyed by the token's sub, which is not the user's id for accounts made through
    // the identity provider's admin API; a write to a user drops every entry that is that user.
    forget(userId) {
      generation++;
      cache.delete(userId);
      for (const [key, user] of cache.entries()) if (user.id === userId) cache.delete(key);
    },
    forgetAll() {
      generation++;
      cache.clear();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in users the auth hook reuses; services forget the ones they change. */
    authUsers: AuthUserCache;
  }
}

export const authUserCachePlugin = fp(
  async (app) => {
    app.decorate(
      'authUsers',
      createAuthUserCache((sub) => app.repos.users.findAuthUser(sub), {
        now: () => app.clock.now().getTime(),
      }),
    );
  },
  { name: 'auth-user-cache', dependencies: ['repositories', 'clock'] },
);
