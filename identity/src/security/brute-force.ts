import { LRUCache } from 'lru-cache';

import { type AttemptLimiter, type AttemptLimiterOptions, createAttemptLimiter } from './attempt-limiter';

/**
 * Keycloak's brute-force detection with temporary lockout, the one set of values for both the
 * local provider and the realm export (realm-export.ts writes them, so a real Keycloak locks
 * accounts the same way). Keycloak's "multiple" strategy: every `failureFactor`-th failure in a
 * row locks the account for `waitIncrementSeconds` times the number of such rounds (1, 2, 3 …
 * minutes), at most `maxFailureWaitSeconds`; failures are forgotten `maxDeltaTimeSeconds` after
 * the last one, or when the owner signs in. Two failures less than `quickLoginCheckMilliSeconds`
 * apart (a script, not a person typing) lock it for `minimumQuickLoginWaitSeconds`.
 * https://www.keycloak.org/docs/latest/server_admin/#password-guess-brute-force-attacks
 */
export const BRUTE_FORCE = {
  permanentLockout: false,
  failureFactor: 5,
  waitIncrementSeconds: 60,
  maxFailureWaitSeconds: 15 * 60,
  maxDeltaTimeSeconds: 12 * 3600,
  quickLoginCheckMilliSeconds: 1000,
  minimumQuickLoginWaitSeconds: 60,
} as const;

export type BruteForceSettings = { -readonly [K in keyof typeof BRUTE_FORCE]: (typeof BRUTE_FORCE)[K] extends boolean ? boolean : number };

interface AccountFailures {
  count: number;
  lastFailure: number;
  /** The last failure known to be one (not an attempt still being checked). */
  lastConfirmed: number;
  notBefore: number;
}

export interface AccountLockout {
  /** Seconds until the account may try again; 0 when it is not locked. */
  lockedFor(account: string): number;
  /**
   * Counts a failure. `pending`: an attempt still being checked (counted so that racing attempts
   * see it); the quick-login check waits for `confirm`, so that a user signing in from two tabs
   * at once is not taken for a script.
   */
  fail(account: string, options?: { pending?: boolean }): void;
  /** A pending attempt turned out a failure: the quick-login check. */
  confirm(account: string): void;
  /** The owner got in: Keycloak forgets the account's failures. */
  clear(account: string): void;
}

export interface AccountLockoutOptions {
  settings?: BruteForceSettings;
  /** Accounts remembered at once; the least recently failed go first. */
  maxAccounts?: number;
  now?: () => number;
}

/** Keycloak's DefaultBruteForceProtector.failure(), per account, in memory. */
export function createAccountLockout({
  settings = BRUTE_FORCE,
  maxAccounts = 50_000,
  now = Date.now,
}: AccountLockoutOptions = {}): AccountLockout {
  const accounts = new LRUCache<string, AccountFailures>({
    max: maxAccounts,
    ttl: settings.maxDeltaTimeSeconds * 1000,
    ttlResolution: 0,
    perf: { now },
  });
  // Keycloak's quick-login check: a failure less than a second after the last one locks for a while.
  const confirm = (account: string): void => {
    const entry = accounts.get(account);
    if (!entry) return;
    const time = now();
    if (entry.notBefore <= time && entry.lastConfirmed > 0 && time - entry.lastConfirmed < settings.quickLoginCheckMilliSeconds) {
      entry.notBefore = time + settings.minimumQuickLoginWaitSeconds * 1000;
    }
    entry.lastConfirmed = time;
  };
  return {
    lockedFor(account) {
      const entry = accounts.get(account);
      return entry ? Math.max(0, Math.ceil((entry.notBefore - now()) / 1000)) : 0;
    },
    fail(account, { pending = false } = {}) {
      const time = now();
      const previous = accounts.get(account);
      const fresh = !previous || time - previous.lastFailure > settings.maxDeltaTimeSeconds * 1000;
      const count = fresh ? 1 : previous.count + 1;
      let waitSeconds = 0;
      if (count % settings.failureFactor === 0) {
        waitSeconds = Math.min(settings.waitIncrementSeconds * (count / settings.failureFactor), settings.maxFailureWaitSeconds);
      }
      const entry: AccountFailures = {
        count,
        lastFailure: time,
        lastConfirmed: fresh ? 0 : previous.lastConfirmed,
        notBefore: Math.max(fresh ? 0 : previous.notBefore, waitSeconds > 0 ? time + waitSeconds * 1000 : 0),
      };
      accounts.set(account, entry);
      if (!pending) confirm(account);
    },
    confirm,
    clear(account) {
      accounts.delete(account);
    },
  };
}

export interface Refusal {
  /** Which limit refused: the account's lockout or the client address's cap. */
  reason: 'account' | 'address';
  retryAfterSeconds: number;
}

/** An attempt let through; it counts as failed already, `failed()` or `succeeded()` settle it. */
export interface Attempt {
  /** The wrong password. */
  failed(): void;
  /** The right password: the account's failures are forgotten, the address's count taken back. */
  succeeded(): void;
}

export interface SignInGuard {
  /**
   * Whether an attempt may go ahead, before any password is hashed. A refusal says which limit and
   * for how long; the refused attempt is not counted (nothing was checked).
   */
  check(keys: { account?: string; address: string }): Refusal | undefined;
  /**
   * Checks and, if let through, counts the attempt as failed at once, before the slow hash: posts
   * racing each other see every earlier one. `succeeded()` takes it back.
   */
  begin(keys: { account: string; address: string }): Refusal | Attempt;
  /** A failure found after `check` (a bad link, a forged form, an unknown device code). */
  fail(keys: { account?: string; address: string }): void;
  clear(account: string): void;
}

export interface SignInGuardOptions {
  settings?: BruteForceSettings;
  addressLimit?: AttemptLimiterOptions;
  now?: () => number;
}

/**
 * One per provider, shared by sign-in (also of device logins), the set-password page and the
 * device code page: failures per account with Keycloak's growing waits, and one cap per client
 * address (100 failures in 15 minutes) over all of them, so many accounts behind one school's
 * address do not lock each other out while a sprayer from one address is still stopped.
 */
export function createSignInGuard({ settings, addressLimit, now = Date.now }: SignInGuardOptions = {}): SignInGuard {
  const lockout = createAccountLockout({ ...(settings ? { settings } : {}), now });
  const addresses: AttemptLimiter = createAttemptLimiter({ now, ...addressLimit });

  const check: SignInGuard['check'] = ({ account, address }) => {
    const addressWait = addresses.retryAfterSeconds([address]);
    const accountWait = account === undefined ? 0 : lockout.lockedFor(account);
    if (addressWait === 0 && accountWait === 0) return undefined;
    return addressWait >= accountWait
      ? { reason: 'address', retryAfterSeconds: addressWait }
      : { reason: 'account', retryAfterSeconds: accountWait };
  };

  return {
    check,
    begin(keys) {
      const refusal = check(keys);
      if (refusal) return refusal;
      lockout.fail(keys.account, { pending: true });
      const time = addresses.fail([keys.address]);
      return {
        failed: () => lockout.confirm(keys.account),
        succeeded() {
          lockout.clear(keys.account);
          addresses.withdraw([keys.address], time);
        },
      };
    },
    fail({ account, address }) {
      if (account !== undefined) lockout.fail(account);
      addresses.fail([address]);
    },
    clear: (account) => lockout.clear(account),
  };
}

export const isRefusal = (outcome: Refusal | Attempt): outcome is Refusal => 'reason' in outcome;
