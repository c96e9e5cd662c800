import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import {
  AUTH_CALLBACK_PATH,
  CHECK_SESSION_INTERVAL_SECONDS,
  LOGOUT_PATH,
  OIDC_SCOPE,
  SILENT_CALLBACK_PATH,
  SILENT_REQUEST_TIMEOUT_SECONDS,
  STALE_STATE_AGE_SECONDS,
} from '../constants';

/** The part of oidc-client-ts' UserManager the portal uses; tests may hand in a spied real one. */
export type UserManagerLike = Pick<
  UserManager,
  | 'getUser'
  | 'signinSilent'
  | 'signinRedirect'
  | 'signinRedirectCallback'
  | 'signoutRedirect'
  | 'removeUser'
  | 'clearStaleState'
>;

export interface UserManagerConfig {
  authority: string;
  clientId: string;
  /** Defaults to the page's origin; the identity provider only accepts registered origins. */
  origin?: string;
  /** Extra oidc-client-ts settings (tests pass `metadata` to skip discovery). */
  overrides?: Partial<UserManagerSettings>;
}

/** Key under which oidc-client-ts keeps the user (WebStorageStateStore prefixes 'oidc.'). */
export const USER_STORAGE_KEY_PREFIX = 'oidc.user:';

export function buildUserManagerSettings({
  authority,
  clientId,
  origin = window.location.origin,
  overrides,
}: UserManagerConfig): UserManagerSettings {
  if (!authority) throw new Error('shared-auth: `authority` (the OIDC issuer URL) is required');
  if (!clientId) throw new Error('shared-auth: `clientId` is required');
  return {
    authority,
    client_id: clientId,
    redirect_uri: `${origin}${AUTH_CALLBACK_PATH}`,
    silent_redirect_uri: `${origin}${SILENT_CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}${LOGOUT_PATH}`,
    response_type: 'code',
    scope: OIDC_SCOPE,
    staleStateAgeInSeconds: STALE_STATE_AGE_SECONDS,
    silentRequestTimeoutInSeconds: SILENT_REQUEST_TIMEOUT_SECONDS,
    checkSessionIntervalInSeconds: CHECK_SESSION_INTERVAL_SECONDS,
    // The login-status iframe needs third-party cookies; an ended session shows up as a failed
    // refresh instead, which is handled.
    monitorSession: false,
    // We refresh on demand before each request, under a cross-tab lock (token-manager.ts);
    // oidc-client-ts' timer would refresh in every tab at once and race on rotated refresh tokens.
    automaticSilentRenew: false,
    // One login for all tabs: the user lives in localStorage, not the default sessionStorage.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    stateStore: new WebStorageStateStore({ store: window.localStorage }),
    ...overrides,
  };
}

export function createUserManager(config: UserManagerConfig): UserManager {
  return new UserManager(buildUserManagerSettings(config));
}
