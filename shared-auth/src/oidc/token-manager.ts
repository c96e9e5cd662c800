import {
  TOKEN_EXPIRED_MESSAGE,
  TOKEN_REFRESH_LOCK_NAME,
  TOKEN_REFRESH_THRESHOLD_SECONDS,
} from '../constants';
import type { UserManagerLike } from './create-user-manager';
import type { SessionUser } from './stored-user';

/** What a request needs to build its Authorization header. */
export interface AccessToken {
  accessToken: string;
  tokenType: string;
}

/** The one Web Locks method we use; `navigator.locks` satisfies it. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface TokenManagerOptions {
  userManager: UserManagerLike;
  /** Defaults to `navigator.locks`; `null` means no cross-tab lock (old browsers, jsdom). */
  locks?: LockManagerLike | null;
  thresholdSeconds?: number;
  /** Called after the identity provider refused a refresh and the stored user was cleared. */
  onSessionExpired?: () => void;
}

export interface TokenManager {
  /** The stored user, refreshed first when its access token is within the threshold of expiry. */
  getUser(): Promise<SessionUser | null>;
  getToken(): Promise<AccessToken | null>;
  /**
   * The start-up SSO check of a tab that found no stored user: a silent sign-in, or, when another
   * tab stored a user meanwhile, that user (refreshed under the lock if it must be).
   */
  signInSilently(): Promise<SessionUser | null>;
  /** Forget the stored user (after a 401 from the API). */
  clear(): Promise<void>;
}

function defaultLocks(): LockManagerLike | null {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof locks.request !== 'function') return null;
  return {
    request: <T>(name: string, callback: () => Promise<T>) =>
      locks.request(name, callback) as Promise<T>,
  };
}

export function isNearExpiry(user: SessionUser, thresholdSeconds: number): boolean {
  const left = user.expires_in;
  return left !== undefined && left <= thresholdSeconds;
}

/**
 * The identity provider answered and said no (HTTP 400 invalid_grant for a dead refresh token,
 * login_required for prompt=none): the session is over. Anything else (network, timeout) is
 * transient and must not log the user out.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ErrorResponse') return true;
  return /\((400|401)\)/.test(error.message);
}

export function toAccessToken(user: SessionUser): AccessToken {
  return { accessToken: user.access_token, tokenType: user.token_type || 'Bearer' };
}

export function createTokenManager({
  userManager,
  locks = defaultLocks(),
  thresholdSeconds = TOKEN_REFRESH_THRESHOLD_SECONDS,
  onSessionExpired,
}: TokenManagerOptions): TokenManager {
  let inFlight: Promise<SessionUser | null> | null = null;

  async function refreshUnderLock(): Promise<SessionUser | null> {
    // Another tab may have refreshed while we waited for the lock. Refresh tokens rotate, and the
    // provider takes a rotated one presented again as stolen: it refuses it and revokes the
    // grant, logging every tab out. So only the storage copy counts, and a fresh one is not renewed.
    const current = await userManager.getUser();
    if (!current || !isNearExpiry(current, thresholdSeconds)) return current;
    try {
      return await userManager.signinSilent();
    } catch (error) {
      if (!isRefusal(error)) {
        // Transient failure: keep the session, use the old token while it is still valid.
        return current.expired ? null : current;
      }
      await userManager.removeUser();
      console.warn(TOKEN_EXPIRED_MESSAGE);
      onSessionExpired?.();
      return null;
    }
  }

  async function signInUnderLock(): Promise<SessionUser | null> {
    // Between this tab finding no user and taking the lock, another tab may have signed in.
    // oidc-client-ts's signinSilent would then spend that tab's refresh token outside the lock,
    // and the provider takes the second use of a rotated token as theft (every tab logged out).
    const current = await userManager.getUser();
    if (current) return refreshUnderLock();
    return userManager.signinSilent().catch(() => null);
  }

  function refresh(): Promise<SessionUser | null> {
    // One refresh per tab at a time; the lock serialises tabs.
    inFlight ??= (
      locks ? locks.request(TOKEN_REFRESH_LOCK_NAME, refreshUnderLock) : refreshUnderLock()
    ).finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  async function getUser(): Promise<SessionUser | null> {
    const user = await userManager.getUser();
    if (!user) return null;
    return isNearExpiry(user, thresholdSeconds) ? refresh() : user;
  }

  return {
    getUser,
    async getToken() {
      const user = await getUser();
      return user?.access_token ? toAccessToken(user) : null;
    },
    signInSilently() {
      return locks ? locks.request(TOKEN_REFRESH_LOCK_NAME, signInUnderLock) : signInUnderLock();
    },
    async clear() {
      await userManager.removeUser();
    },
  };
}
