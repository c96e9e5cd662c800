import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
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
 * JWKS with jose's own caching (createRemoteJWKSet: `cacheMaxAge`, and `cooldownDuration` for the
 * refetch on an unknown kid), one set per registration, so each platform has its own minute;
 * rebuilt when the registration's URL changes. Fetched through the guarded client (issue #20
 * point 4): a registration's JWKS URL must not reach an internal address.
 */
export function createPlatformKeys(
  outbound: OutboundClient,
  jwksUrlOf: (platformId: number) => Promise<string | null>,
): (platform: RegisteredPlatform) => JWTVerifyGetKey {
  // A key set per registration; the bound only keeps deleted registrations from piling up.
  const cache = new LRUCache<number, { url: string; keys: JWTVerifyGetKey }>({
    max: PLATFORM_KEY_SETS_MAX,
  });
  return (platform) => async (header, token) => {
    const url = await jwksUrlOf(platform.id);
    if (!url) throw new Error('platform deleted during the launch');
    let entry = cache.get(platform.id);
    if (entry?.url !== url) {
      entry = {
        url,
        keys: createRemoteJWKSet(new URL(url), {
          timeoutDuration: 5_000,
          cooldownDuration: UNKNOWN_KID_REFETCH_MS,
          cacheMaxAge: PLATFORM_KEYS_MAX_AGE_MS,
          [customFetch]: (jwksUrl, init) => outbound.fetch(jwksUrl, init),
        }),
      };
      cache.set(platform.id, entry);
    }
    return entry.keys(header, token);
  };
}
