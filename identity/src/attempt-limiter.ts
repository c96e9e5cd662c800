import { LRUCache } from 'lru-cache';

export interface AttemptLimiterOptions {
  /** Failures a key may collect within the window before it is refused. */
  maxFailures?: number;
  windowMs?: number;
  /** Keys (accounts, addresses) remembered at once; the least recently failed go first. */
  maxKeys?: number;
  now?: () => number;
}

export interface AttemptLimiter {
  /** Seconds until every key may try again; 0 when none is blocked. */
  retryAfterSeconds(keys: readonly string[]): number;
  fail(keys: readonly string[]): void;
  forget(key: string): void;
}

/** Keycloak's brute-force detection defaults are close: a handful of failures, minutes of wait. */
export const SIGN_IN_LIMIT = { maxFailures: 10, windowMs: 15 * 60_000 } as const;

/**
 * Counts failures per key in a sliding window. Each key holds at most `maxFailures` timestamps and
 * lives `windowMs` after its latest failure, so memory is bounded by `maxKeys` whatever the load.
 */
export function createAttemptLimiter({
  maxFailures = SIGN_IN_LIMIT.maxFailures,
  windowMs = SIGN_IN_LIMIT.windowMs,
  maxKeys = 20_000,
  now = Date.now,
}: AttemptLimiterOptions = {}): AttemptLimiter {
  const failures = new LRUCache<string, number[]>({
    max: maxKeys,
    ttl: windowMs,
    ttlResolution: 0,
    perf: { now },
  });

  const recent = (key: string): number[] => {
    const since = now() - windowMs;
    return (failures.get(key) ?? []).filter((time) => time > since);
  };

  return {
    retryAfterSeconds(keys) {
      let wait = 0;
      for (const key of keys) {
        const times = recent(key);
        // Blocked until the oldest of the last maxFailures failures leaves the window.
        if (times.length >= maxFailures) wait = Math.max(wait, times[times.length - maxFailures]! + windowMs - now());
      }
      return Math.ceil(wait / 1000);
    },
    fail(keys) {
      const time = now();
      for (const key of keys) failures.set(key, [...recent(key), time].slice(-maxFailures));
    },
    forget(key) {
      failures.delete(key);
    },
  };
}

/**
 * The part of a client address one party controls: IPv4 as is (also when mapped into IPv6), IPv6
 * by its /64, which a single customer usually gets whole and could otherwise rotate through.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
