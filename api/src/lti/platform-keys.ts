import { createRemoteJWKSet, customFetch, errors as joseErrors, type JWTVerifyGetKey } from 'jose';
import { systemClock, type Clock } from '../jobs/clock';
import { LRUCache } from 'lru-cache';
import type { OutboundClient } from '../lib/outbound-http';
import type { RegisteredPlatform } from '../repositories/lti-types';

/** Far more registrations than a portal has; the least recently launched one makes room. */
const PLATFORM_KEY_SETS_MAX = 1000;

/**
 * A launch signed with a `kid` we do not know refetches that platform's JWKS at most this often
 * (issue #22 point 5): a platform that rotates its key hourly gets its new key on the first
 * launch after the rotation, while a flood of launches with made-up kids costs the platform one
 * request a minute, not one per launch.
 */
export const UNKNOWN_KID_REFETCH_MS = 60_000;
/** Known keys are kept this long, then the next launch fetches the set again. */
export const PLATFORM_KEYS_MAX_AGE_MS = 600_000;

/**
 * The platforms' public keys for the launch check (`LaunchStores.keys`): each registration's
 * JWKS fetched and cached by jose (createRemoteJWKSet; known keys kept PLATFORM_KEYS_MAX_AGE_MS),
 * one set per registration, so each platform has its own minute; rebuilt when the registration's
 * URL changes. The refetch on an unknown kid is ours, on `clock`, instead of jose's cooldown,
 * which reads the system time a test cannot move. Fetched through the guarded client (issue #20
 * point 4): a registration's JWKS URL must not reach an internal address.
 */
export function createPlatformKeys(
  outbound: OutboundClient,
  jwksUrlOf: (platformId: number) => Promise<string | null>,
  clock: Pick<Clock, 'now'> = systemClock,
): (platform: RegisteredPlatform) => JWTVerifyGetKey {
  // A key set per registration; the bound only keeps deleted registrations from piling up.
  const cache = new LRUCache<number, KeySet>({ max: PLATFORM_KEY_SETS_MAX });

  function keySet(url: string): KeySet {
    const set: KeySet = {
      url,
      lastFetch: Number.NEGATIVE_INFINITY,
      keys: createRemoteJWKSet(new URL(url), {
        timeoutDuration: 5_000,
        // jose never refetches on an unknown kid by itself; the catch below decides.
        cooldownDuration: Number.POSITIVE_INFINITY,
        cacheMaxAge: PLATFORM_KEYS_MAX_AGE_MS,
        [customFetch]: (jwksUrl, init) => {
          set.lastFetch = clock.now().getTime();
          return outbound.fetch(jwksUrl, init);
        },
      }),
    };
    return set;
  }

  return (platform) => async (header, token) => {
    const url = await jwksUrlOf(platform.id);
    if (!url) throw new Error('platform deleted during the launch');
    let set = cache.get(platform.id);
    if (set?.url !== url) {
      set = keySet(url);
      cache.set(platform.id, set);
    }
    try {
      return await set.keys(header, token);
    } catch (error) {
      const now = clock.now().getTime();
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || now - set.lastFetch < UNKNOWN_KID_REFETCH_MS) {
        throw error;
      }
      // Taken before the fetch, so launches arriving meanwhile do not fetch again.
      set.lastFetch = now;
      await set.keys.reload();
      return set.keys(header, token);
    }
  };
}

interface KeySet {
  url: string;
  /** When the set was last fetched (clock ms), whether jose (cache age) or we (unknown kid) asked. */
  lastFetch: number;
  keys: ReturnType<typeof createRemoteJWKSet>;
}
