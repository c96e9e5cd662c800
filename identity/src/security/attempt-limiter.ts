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
  /** Records one failure for every key; returns its time, which `withdraw` takes. */
  fail(keys: readonly string[]): number;
  /** Takes back the failure recorded at `time` (an attempt that turned out not to be one). */
  withdraw(keys: readonly string[], time: number): void;
  forget(key: string): void;
}

/**
 * The per-address cap (brute-force.ts): far above what a classroom behind one NAT address mistypes
 * in a quarter of an hour, far below what a password sprayer needs.
 */
export const ADDRESS_LIMIT = { maxFailures: 100, windowMs: 15 * 60_000 } as const;

/**
 * Counts failures per key in a sliding window. Each key holds at most `maxFailures` timestamps and
 * lives `windowMs` after its latest failure, so memory is bounded by `maxKeys` whatever the load.
 */
export function createAttemptLimiter({
  maxFailures = ADDRESS_LIMIT.maxFailures,
  windowMs = ADDRESS_LIMIT.windowMs,
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
      return time;
    },
    withdraw(keys, time) {
      for (const key of keys) {
        const times = failures.get(key);
        const index = times?.lastIndexOf(time) ?? -1;
        if (!times || index < 0) continue;
        const rest = times.filter((_, at) => at !== index);
        if (rest.length > 0) failures.set(key, rest, { noUpdateTTL: true });
        else failures.delete(key);
      }
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
