import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { CurrentUser } from '@portal/contract';
import { createApiClient } from '../api/create-api-client';
import { TokenNotFoundError } from '../api/errors';
import {
  KC_ACTION_PARAM,
  KC_IDP_HINT_PARAM,
  UPDATE_PASSWORD_ACTION,
  WHOAMI_FAILED_MESSAGE,
  WHOAMI_PATH,
} from '../constants';
import {
  callbackPathsOf,
  createUserManager,
  USER_STORAGE_KEY_PREFIX,
  type UserManagerLike,
} from '../oidc/create-user-manager';
import { currentPath, sanitizeReturnPath } from '../oidc/return-path';
import { watchSession } from '../oidc/session-monitor';
import type { SessionUser } from '../oidc/stored-user';
import { createTokenManager } from '../oidc/token-manager';
import {
  ApiClientContext,
  AuthContext,
  type AuthContextValue,
  type AuthState,
  type LoginOptions,
} from './auth-context';

export interface AuthProviderProps {
  /** OIDC issuer, e.g. http://localhost:8180/realms/main. */
  authority: string;
  clientId: string;
  /**
   * Where the identity provider returns to: AUTH_CALLBACK_PATH and SILENT_CALLBACK_PATH under
   * this path prefix (UserManagerConfig.callbackBase). Default: the portal's root.
   */
  callbackBase?: string;
  /** '' when the host proxies /api on its own origin. */
  apiBaseUrl: string;
  children?: ReactNode;
  /** For tests: a (spied) UserManager; by default one is built from authority and clientId. */
  userManager?: UserManagerLike;
}

const LOADING: AuthState = { status: 'loading', user: null, error: null };
const UNAUTHENTICATED: AuthState = { status: 'unauthenticated', user: null, error: null };

function errorState(error: Error): AuthState {
  return { status: 'error', user: null, error };
}

function asError(cause: unknown): Error {
  return cause instanceof Error ? cause : new Error(String(cause));
}

/**
 * Leaves /auth/callback without a page load. The popstate tells a react-router browser router
 * (created before or after this) to pick up the new location; the router's own history state is
 * kept so its index bookkeeping stays valid.
 */
function replaceLocation(path: string): void {
  window.history.replaceState(window.history.state, '', path);
  window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
}

function returnPathOf(user: SessionUser): string {
  const state = user.state as { returnPath?: unknown } | null | undefined;
  return sanitizeReturnPath(state?.returnPath);
}

export function AuthProvider({
  authority,
  clientId,
  callbackBase,
  apiBaseUrl,
  children,
  userManager: injected,
}: AuthProviderProps) {
  const [userManager] = useState<UserManagerLike>(
    () => injected ?? createUserManager({ authority, clientId, ...(callbackBase ? { callbackBase } : {}) }),
  );
  const [callbackPath] = useState(() => callbackPathsOf(callbackBase).callback);
  const [state, setState] = useState<AuthState>(LOADING);
  // Event handlers (storage, 401) need the latest state without re-subscribing.
  const stateRef = useRef<AuthState>(LOADING);
  const subRef = useRef<string | null>(null);
  const update = useCallback((next: AuthState) => {
    stateRef.current = next;
    if (next.status !== 'authenticated') subRef.current = null;
    setState(next);
  }, []);

  const tokens = useMemo(
    () => createTokenManager({ userManager, onSessionExpired: () => update(UNAUTHENTICATED) }),
    [userManager, update],
  );

  const apiClient = useMemo(
    () =>
      createApiClient({
        apiBaseUrl,
        getToken: tokens.getToken,
        onUnauthorized: async () => {
          await tokens.clear();
          // While loading, whoami's own failure decides the state (docs/requirements.md#errors-and-messages: error 'Failed').
          if (stateRef.current.status === 'authenticated') update(UNAUTHENTICATED);
        },
      }),
    [apiBaseUrl, tokens, update],
  );

  const loadCurrentUser = useCallback(
    async (sub: string) => {
      try {
        const result = await apiClient.get<CurrentUser>(WHOAMI_PATH);
        if (result.isSuccess) {
          update({ status: 'authenticated', user: result.data, error: null });
          subRef.current = sub;
          return;
        }
        update(errorState(new Error(WHOAMI_FAILED_MESSAGE, { cause: result.error })));
      } catch (cause) {
        if (cause instanceof TokenNotFoundError) update(UNAUTHENTICATED);
        else update(errorState(new Error(WHOAMI_FAILED_MESSAGE, { cause })));
      }
    },
    [apiClient, update],
  );

  const started = useRef(false);
  useEffect(() => {
    // Once per provider: StrictMode re-runs effects, and a login callback can be redeemed once.
    if (started.current) return;
    started.current = true;

    async function completeLogin() {
      try {
        const user = await userManager.signinRedirectCallback();
        replaceLocation(returnPathOf(user));
        await loadCurrentUser(user.profile.sub);
      } catch (cause) {
        update(errorState(asError(cause)));
      }
    }

    async function restoreSession() {
      void userManager.clearStaleState().catch(() => undefined);
      try {
        const stored = await userManager.getUser();
        // docs/requirements.md#sign-in-states: look for an existing SSO session without forcing a login.
        const user = stored ? await tokens.getUser() : await tokens.signInSilently();
        if (!user || user.expired) update(UNAUTHENTICATED);
        else await loadCurrentUser(user.profile.sub);
      } catch (cause) {
        // A corrupt stored user must not lock the portal: forget it and start over.
        console.warn('Could not restore the session', cause);
        await userManager.removeUser().catch(() => undefined);
        update(UNAUTHENTICATED);
      }
    }

    void (window.location.pathname === callbackPath ? completeLogin() : restoreSession());
  }, [userManager, tokens, loadCurrentUser, update, callbackPath]);

  // Another tab logged in, out, or switched user (its refreshes need nothing: we read storage).
  useEffect(() => {
    async function reconcile() {
      const current = stateRef.current;
      if (current.status === 'loading') return;
      const user = await userManager.getUser().catch(() => null);
      if (!user || user.expired) {
        if (current.status === 'authenticated') update(UNAUTHENTICATED);
        return;
      }
      const switched = current.status === 'authenticated' && subRef.current !== user.profile.sub;
      if (current.status === 'unauthenticated' || switched) {
        update(LOADING);
        await loadCurrentUser(user.profile.sub);
      }
    }
    function onStorage(event: StorageEvent) {
      if (event.storageArea && event.storageArea !== window.localStorage) return;
      if (event.key !== null && !event.key.startsWith(USER_STORAGE_KEY_PREFIX)) return;
      void reconcile();
    }
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userManager, loadCurrentUser, update]);

  // docs/requirements.md#limits-and-defaults: a sign-out at the identity provider (another tab,
  // another application) ends this tab's session at the next login-status check.
  const signedIn = state.status === 'authenticated';
  useEffect(() => {
    if (!signedIn) return;
    return watchSession({
      userManager,
      clientId,
      onChanged: () => {
        void tokens
          .clear()
          .catch(() => undefined)
          .finally(() => update(UNAUTHENTICATED));
      },
    });
  }, [signedIn, userManager, clientId, tokens, update]);

  const pendingLogin = useRef<Promise<void> | null>(null);
  const login = useCallback(
    (returnPath?: string, { idpHint, loginHint }: LoginOptions = {}) => {
      // The gate may ask twice (StrictMode, re-renders) before the browser leaves the page.
      pendingLogin.current ??= userManager
        .signinRedirect({
          state: { returnPath: sanitizeReturnPath(returnPath ?? currentPath()) },
          ...(idpHint ? { extraQueryParams: { [KC_IDP_HINT_PARAM]: idpHint } } : {}),
          ...(loginHint ? { login_hint: loginHint } : {}),
        })
        .catch((cause: unknown) => {
          pendingLogin.current = null;
          update(errorState(asError(cause)));
        });
      return pendingLogin.current;
    },
    [userManager, update],
  );

  const changePassword = useCallback(
    async ({ returnPath, language }: { returnPath?: string; language?: string } = {}) => {
      // The user stays signed in if the redirect cannot start; the caller shows the failure.
      await userManager.signinRedirect({
        state: { returnPath: sanitizeReturnPath(returnPath ?? currentPath()) },
        extraQueryParams: { [KC_ACTION_PARAM]: UPDATE_PASSWORD_ACTION },
        ...(language ? { ui_locales: language } : {}),
      });
    },
    [userManager],
  );

  const logout = useCallback(async () => {
    const idToken = (await userManager.getUser().catch(() => null))?.id_token;
    try {
      // Clears the stored user, then leaves for the identity provider, which returns to /logout.
      await userManager.signoutRedirect(idToken ? { id_token_hint: idToken } : undefined);
    } catch (cause) {
      console.warn('Logout at the identity provider failed', cause);
      await userManager.removeUser().catch(() => undefined);
      update(UNAUTHENTICATED);
    }
  }, [userManager, update]);

  const getAccessToken = useCallback(
    async () => (await tokens.getToken())?.accessToken ?? null,
    [tokens],
  );

  const reloadUser = useCallback(async () => {
    if (stateRef.current.status !== 'authenticated') return;
    const result = await apiClient.get<CurrentUser>(WHOAMI_PATH);
    // A failed reload keeps the user as they were: only the first load decides the auth state.
    if (!result.isSuccess) throw new Error(WHOAMI_FAILED_MESSAGE, { cause: result.error });
    if (stateRef.current.status === 'authenticated') {
      update({ status: 'authenticated', user: result.data, error: null });
    }
  }, [apiClient, update]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, login, changePassword, logout, getAccessToken, reloadUser }),
    [state, login, changePassword, logout, getAccessToken, reloadUser],
  );

  return (
    <AuthContext.Provider value={value}>
      <ApiClientContext.Provider value={apiClient}>{children}</ApiClientContext.Provider>
    </AuthContext.Provider>
  );
}
