import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { OutboundClient } from '../lib/outbound-http';
import type { RegisteredPlatform } from '../repositories/lti-types';

/** Far more registrations than a portal has; the least recently launched one makes room. */
const PLATFORM_KEY_SETS_MAX = 1000;

/**
 * The platforms' public keys for the launch check (`LaunchStores.keys`): each registration's
 * JWKS with jose's own caching (keys kept 10 minutes, an unknown kid refetches at most every
 * 30 s), rebuilt when the registration's URL changes. Fetched through the guarded client
 * (issue #20 point 4): a registration's JWKS URL must not reach an internal address.
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
          cooldownDuration: 30_000,
          cacheMaxAge: 600_000,
          [customFetch]: (jwksUrl, init) => outbound.fetch(jwksUrl, init),
        }),
      };
      cache.set(platform.id, entry);
    }
    return entry.keys(header, token);
  };
}
