import { createContext } from 'react';
import type { CurrentUser } from '@portal/contract';
import type { ApiClient } from '../api/create-api-client';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'error';

/** docs/requirements.md#sign-in-states: loading → authenticated (user loaded) | unauthenticated (no user, no error) | error. */
export type AuthState =
  | { status: 'loading'; user: null; error: null }
  | { status: 'authenticated'; user: CurrentUser; error: null }
  | { status: 'unauthenticated'; user: null; error: null }
  | { status: 'error'; user: null; error: Error };

/**
 * Extra authorization parameters of one sign-in (Keycloak's): `idpHint` (kc_idp_hint) sends the
 * browser straight to that brokered identity provider instead of the sign-in form, `loginHint`
 * (login_hint) is passed on to it — an LTI launch signs in by the launch this way.
 */
export interface LoginOptions {
  idpHint?: string;
  loginHint?: string;
}

export type AuthContextValue = AuthState & {
  /** Redirects to the identity provider; comes back to `returnPath` (default: the current URL). */
  login(returnPath?: string, options?: LoginOptions): Promise<void>;
  /**
   * Keycloak's application-initiated action UPDATE_PASSWORD: a sign-in redirect on which the
   * identity provider asks for the current and a new password, then comes back to `returnPath`
   * (default: the current URL), changed or cancelled.
   */
  changePassword(options?: { returnPath?: string; language?: string }): Promise<void>;
  /** Ends the session at the identity provider (which returns to /logout) and forgets the user. */
  logout(): Promise<void>;
  /** The raw access token, refreshed first when within 30 s of expiry; null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Loads whoami again, after the user changed something about themselves (the Brightspace
   * reset clears a mismatch). Rejects when whoami fails; the user then stays as they were.
   */
  reloadUser(): Promise<void>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
AuthContext.displayName = 'PortalAuthContext';

export const ApiClientContext = createContext<ApiClient | null>(null);
ApiClientContext.displayName = 'PortalApiClientContext';
