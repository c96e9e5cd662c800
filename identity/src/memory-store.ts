import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds; undefined means no expiry. */
  expiresAt: number | undefined;
}

const SWEEP_INTERVAL_MS = 60_000;

/** Models whose records belong to a grant and go when the grant is revoked. */
const GRANT_BOUND = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/**
 * Sessions, grants and tokens kept in this process. The library's own development adapter is a
 * module-wide LRU capped at 1000 entries, which silently evicts live refresh tokens under load and
 * is shared by every provider in a process (tests start several); this store is per provider,
 * unbounded except by expiry, and swept as it is written to.
 */
export function createMemoryStore(now: () => number = Date.now): AdapterFactory {
  const entries = new Map<string, Entry>();
  const sessionKeyByUid = new Map<string, string>();
  const keyByUserCode = new Map<string, string>();
  const keysByGrant = new Map<string, Set<string>>();
  let lastSweep = now();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  function sweep(): void {
    const time = now();
    if (time - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = time;
    for (const key of entries.keys()) live(key);
    for (const [uid, key] of sessionKeyByUid) if (!entries.has(key)) sessionKeyByUid.delete(uid);
    for (const [code, key] of keyByUserCode) if (!entries.has(key)) keyByUserCode.delete(code);
    for (const [grantId, keys] of keysByGrant) {
      for (const key of keys) if (!entries.has(key)) keys.delete(key);
      if (keys.size === 0) keysByGrant.delete(grantId);
    }
  }

  return (model: string): Adapter => {
    const keyFor = (id: string): string => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        sweep();
        const key = keyFor(id);
        entries.set(key, {
          payload: structuredClone(payload),
          expiresAt: expiresIn ? now() + expiresIn * 1000 : undefined,
        });
        if (model === 'Session' && typeof payload.uid === 'string') sessionKeyByUid.set(payload.uid, key);
        if (typeof payload.userCode === 'string') keyByUserCode.set(payload.userCode, key);
        if (GRANT_BOUND.has(model) && typeof payload.grantId === 'string') {
          const keys = keysByGrant.get(payload.grantId) ?? new Set<string>();
          keys.add(key);
          keysByGrant.set(payload.grantId, keys);
        }
      },
      async find(id) {
        const payload = live(keyFor(id))?.payload;
        return payload ? structuredClone(payload) : undefined;
      },
      async findByUid(uid) {
        const key = sessionKeyByUid.get(uid);
        const payload = key ? live(key)?.payload : undefined;
        return payload ? structuredClone(payload) : undefined;
      },
      async findByUserCode(userCode) {
        const key = keyByUserCode.get(userCode);
        const payload = key ? live(key)?.payload : undefined;
        return payload ? structuredClone(payload) : undefined;
      },
      async consume(id) {
        const entry = live(keyFor(id));
        if (entry) entry.payload.consumed = Math.floor(now() / 1000);
      },
      async destroy(id) {
        entries.delete(keyFor(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of keysByGrant.get(grantId) ?? []) entries.delete(key);
        keysByGrant.delete(grantId);
      },
    };
  };
}
