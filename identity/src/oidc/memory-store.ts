import { LRUCache } from 'lru-cache';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

/**
 * Default bound per model (sessions, grants, refresh tokens, interactions… each get their own).
 * Sizing: the portal refreshes about every 4.5 minutes (300 s access tokens, refreshed 30 s before
 * expiry), and with rotation every consumed refresh token stays until the session's 10-hour
 * maximum so that its reuse can still be detected: about 135 refresh-token records per user over a
 * full session. 50 000 holds that for some 370 users signed in all day, far beyond what this
 * local/test provider serves (e2e, benchmarks, a developer's browser); production uses Keycloak.
 * An entry costs roughly 1 KB, so a full model stays near 50 MB.
 */
export const DEFAULT_MAX_ENTRIES_PER_MODEL = 50_000;

/** Models whose records belong to a grant and go when the grant is revoked. */
const GRANT_BOUND = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

const PURGE_INTERVAL_MS = 60_000;

/** Models whose records belong to a signed-in user: they go when the user is deleted or disabled. */
const ACCOUNT_BOUND = new Set(['Session', 'Grant', ...GRANT_BOUND]);

export interface MemoryStoreOptions {
  /** Entries kept per model before the least recently used is dropped. */
  maxEntriesPerModel?: number;
  /** Milliseconds clock; tests move it instead of waiting. */
  now?: () => number;
  /** Called when a live (unexpired) entry had to make room: the bound is too small for the load. */
  onEvict?: (model: string, id: string) => void;
}

export interface MemoryStore extends AdapterFactory {
  /**
   * Drops every session, grant and token of a user, as Keycloak ends a deleted or disabled user's
   * sessions; the adapter interface of oidc-provider has no way to find them by user.
   */
  forgetAccount(accountId: string): void;
}

type ModelAdapter = Adapter & { forgetAccount(accountId: string): void };

/**
 * Secondary indexes of one model: they point at ids of its entries, and `unindex` keeps them in
 * step with every way an entry leaves (evicted, expired, overwritten, deleted), so they are
 * bounded by the entries.
 */
function createIndexes(model: string) {
  const idByUid = new Map<string, string>();
  const idByUserCode = new Map<string, string>();
  const idsByGrant = new Map<string, Set<string>>();
  const idsByAccount = new Map<string, Set<string>>();

  const addTo = (index: Map<string, Set<string>>, key: string, id: string): void => {
    const ids = index.get(key) ?? new Set<string>();
    ids.add(id);
    index.set(key, ids);
  };
  const removeFrom = (index: Map<string, Set<string>>, key: string, id: string): void => {
    const ids = index.get(key);
    ids?.delete(id);
    if (ids?.size === 0) index.delete(key);
  };

  return {
    idByUid,
    idByUserCode,
    idsByGrant,
    idsByAccount,
    index(id: string, payload: AdapterPayload): void {
      if (model === 'Session' && typeof payload.uid === 'string') idByUid.set(payload.uid, id);
      if (typeof payload.userCode === 'string') idByUserCode.set(payload.userCode, id);
      if (GRANT_BOUND.has(model) && typeof payload.grantId === 'string') addTo(idsByGrant, payload.grantId, id);
      if (ACCOUNT_BOUND.has(model) && typeof payload.accountId === 'string') addTo(idsByAccount, payload.accountId, id);
    },
    unindex(id: string, payload: AdapterPayload): void {
      if (typeof payload.uid === 'string' && idByUid.get(payload.uid) === id) idByUid.delete(payload.uid);
      if (typeof payload.userCode === 'string' && idByUserCode.get(payload.userCode) === id) {
        idByUserCode.delete(payload.userCode);
      }
      if (typeof payload.grantId === 'string') removeFrom(idsByGrant, payload.grantId, id);
      if (typeof payload.accountId === 'string') removeFrom(idsByAccount, payload.accountId, id);
    },
  };
}

function createAdapter(
  model: string,
  { maxEntriesPerModel, now, onEvict }: Required<Pick<MemoryStoreOptions, 'maxEntriesPerModel' | 'now'>> & Pick<MemoryStoreOptions, 'onEvict'>,
): ModelAdapter {
  const indexes = createIndexes(model);
  const { idByUid, idByUserCode, idsByGrant, idsByAccount } = indexes;
  const entries = new LRUCache<string, AdapterPayload>({
    max: maxEntriesPerModel,
    // Reading the clock on every check keeps expiry exact (and a test clock usable).
    ttlResolution: 0,
    perf: { now },
    dispose(payload, id, reason) {
      indexes.unindex(id, payload);
      if (reason === 'evict') onEvict?.(model, id);
    },
  });
  let lastPurge = now();

  // Expired entries are dropped when read; this frees the ones nobody reads again.
  const purgeNowAndThen = (): void => {
    if (now() - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = now();
    entries.purgeStale();
  };

  const copy = (payload: AdapterPayload | undefined) => (payload ? structuredClone(payload) : undefined);

  return {
    async upsert(id, payload, expiresIn) {
      purgeNowAndThen();
      // A ttl of 0 means "no expiry" to lru-cache, which is what an entry without expiresIn wants.
      entries.set(id, structuredClone(payload), { ttl: expiresIn ? expiresIn * 1000 : 0 });
      indexes.index(id, payload);
    },
    async find(id) {
      return copy(entries.get(id));
    },
    async findByUid(uid) {
      const id = idByUid.get(uid);
      return copy(id === undefined ? undefined : entries.get(id));
    },
    async findByUserCode(userCode) {
      const id = idByUserCode.get(userCode);
      return copy(id === undefined ? undefined : entries.get(id));
    },
    async consume(id) {
      // In place, so the entry keeps its expiry: a consumed token must outlive its use for the
      // library to recognise a second use.
      const payload = entries.get(id);
      if (payload) payload.consumed = Math.floor(now() / 1000);
    },
    async destroy(id) {
      entries.delete(id);
    },
    async revokeByGrantId(grantId) {
      for (const id of [...(idsByGrant.get(grantId) ?? [])]) entries.delete(id);
      idsByGrant.delete(grantId);
    },
    forgetAccount(accountId) {
      for (const id of [...(idsByAccount.get(accountId) ?? [])]) entries.delete(id);
      idsByAccount.delete(accountId);
    },
  };
}

/**
 * Sessions, grants and tokens kept in this process, one LRU per model and per provider. Not the
 * library's development adapter: that is one module-wide LRU of 1000 entries shared by every
 * provider in the process (tests start several), in which anonymous interactions silently evicted
 * live refresh tokens. Here a flood of one kind (interactions, device codes) only pushes out the
 * oldest of its own kind, and each entry also expires on its own (`expiresIn`).
 */
export function createMemoryStore({
  maxEntriesPerModel = DEFAULT_MAX_ENTRIES_PER_MODEL,
  now = Date.now,
  onEvict,
}: MemoryStoreOptions = {}): MemoryStore {
  if (!Number.isSafeInteger(maxEntriesPerModel) || maxEntriesPerModel < 1) {
    throw new RangeError(`maxEntriesPerModel must be a positive integer, got ${maxEntriesPerModel}`);
  }
  const adapters = new Map<string, ModelAdapter>();

  const factory = (model: string): Adapter => {
    let adapter = adapters.get(model);
    if (!adapter) {
      adapter = createAdapter(model, { maxEntriesPerModel, now, onEvict });
      adapters.set(model, adapter);
    }
    return adapter;
  };
  return Object.assign(factory, {
    forgetAccount(accountId: string): void {
      for (const adapter of adapters.values()) adapter.forgetAccount(accountId);
    },
  });
}
