import type * as OidcClient from 'oidc-client-ts';
import type { MetadataService, UserManager, UserManagerSettings } from 'oidc-client-ts';
import {
  AUTH_CALLBACK_PATH,
  CHECK_SESSION_INTERVAL_SECONDS,
  LOGOUT_PATH,
  OIDC_SCOPE,
  SILENT_CALLBACK_PATH,
  SILENT_REQUEST_TIMEOUT_SECONDS,
  STALE_STATE_AGE_SECONDS,
} from '../constants';
import { StoredUser, type SessionUser } from './stored-user';

type OidcClientModule = typeof OidcClient;

/**
 * The user manager the portal talks to: oidc-client-ts' UserManager, or the deferred one below,
 * which reads the stored user itself. Tests may hand in a spied real one.
 */
export interface UserManagerLike extends Pick<
  UserManager,
  | 'signinSilent'
  | 'signinRedirect'
  | 'signinRedirectCallback'
  | 'signoutRedirect'
  | 'removeUser'
  | 'clearStaleState'
> {
  getUser(): Promise<SessionUser | null>;
  /** The provider's discovery document, as far as the portal reads it without the library. */
  readonly metadataService: Pick<MetadataService, 'getCheckSessionIframe'>;
}

export interface UserManagerConfig {
  authority: string;
  clientId: string;
  /** Defaults to the page's origin; the identity provider only accepts registered origins. */
  origin?: string;
  /**
   * A path prefix the sign-in's return pages (AUTH_CALLBACK_PATH, SILENT_CALLBACK_PATH) are served
   * under, e.g. `/lti` for pages that other sites may frame: a page's return pages must allow the
   * same framing as the page, so those of a framed launch are its own (see callbackPathsOf).
   * Default: none, the portal's root.
   */
  callbackBase?: string;
  /** Extra oidc-client-ts settings (tests pass `metadata` to skip discovery). */
  overrides?: Partial<UserManagerSettings>;
}

/** Key under which oidc-client-ts keeps the user (WebStorageStateStore prefixes 'oidc.'). */
export const USER_STORAGE_KEY_PREFIX = 'oidc.user:';

/** The storage key of the user of `authority` and `clientId`, as UserManager builds it. */
export const userStorageKey = (authority: string, clientId: string) =>
  `${USER_STORAGE_KEY_PREFIX}${authority}:${clientId}`;

/** `''` or path segments of letters, digits and `-`, each after a `/`, never ending in one. */
const CALLBACK_BASE = /^(\/[a-z0-9-]+)*$/;

function checkConfig({ authority, clientId, callbackBase = '' }: UserManagerConfig): void {
  if (!authority) throw new Error('shared-auth: `authority` (the OIDC issuer URL) is required');
  if (!clientId) throw new Error('shared-auth: `clientId` is required');
  if (!CALLBACK_BASE.test(callbackBase)) throw new Error('shared-auth: `callbackBase` must be a path like /lti');
}

/** The paths the identity provider returns to (registered redirect URIs) under `callbackBase`. */
export function callbackPathsOf(callbackBase = ''): { callback: string; silentCallback: string } {
  return { callback: `${callbackBase}${AUTH_CALLBACK_PATH}`, silentCallback: `${callbackBase}${SILENT_CALLBACK_PATH}` };
}

export function buildUserManagerSettings(
  config: UserManagerConfig,
  { WebStorageStateStore }: Pick<OidcClientModule, 'WebStorageStateStore'>,
): UserManagerSettings {
  checkConfig(config);
  const { authority, clientId, origin = window.location.origin, callbackBase, overrides } = config;
  const { callback, silentCallback } = callbackPathsOf(callbackBase);
  return {
    authority,
    client_id: clientId,
    redirect_uri: `${origin}${callback}`,
    silent_redirect_uri: `${origin}${silentCallback}`,
    post_logout_redirect_uri: `${origin}${LOGOUT_PATH}`,
    response_type: 'code',
    scope: OIDC_SCOPE,
    staleStateAgeInSeconds: STALE_STATE_AGE_SECONDS,
    silentRequestTimeoutInSeconds: SILENT_REQUEST_TIMEOUT_SECONDS,
    checkSessionIntervalInSeconds: CHECK_SESSION_INTERVAL_SECONDS,
    // The portal watches the session itself without loading this library (session-monitor.ts),
    // at CHECK_SESSION_INTERVAL_SECONDS; the setting above is for anyone who turns this on.
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

/** oidc-client-ts' UserManager with the portal's settings, from an already loaded library. */
export function newOidcUserManager(config: UserManagerConfig, oidc: OidcClientModule): UserManager {
  return new oidc.UserManager(buildUserManagerSettings(config, oidc));
}

const loadOidcClient = (): Promise<OidcClientModule> => import('oidc-client-ts');

/** Where oidc-client-ts' MetadataService would look (`metadataUrl` defaults the same way). */
function discoveryUrl({ authority, overrides }: UserManagerConfig): string {
  return overrides?.metadataUrl ?? `${authority.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/** `check_session_iframe` from the discovery document (or the metadata the settings give). */
async function fetchCheckSessionIframe(config: UserManagerConfig): Promise<string | undefined> {
  const given = config.overrides?.metadata;
  if (given) return given.check_session_iframe;
  const response = await fetch(discoveryUrl(config), { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`Discovery failed (${response.status})`);
  const { check_session_iframe: url } = (await response.json()) as { check_session_iframe?: unknown };
  return typeof url === 'string' ? url : undefined;
}

/**
 * The portal's user manager. oidc-client-ts (17 kB gzip, the largest part of a signed-in first
 * visit after React) loads only when a method needs the identity provider: sign-in, refresh,
 * the login callback, sign-out. Until then the stored user is read from localStorage directly,
 * so a visit with a valid token never downloads it. `load` is for tests.
 */
export function createUserManager(
  config: UserManagerConfig,
  load: () => Promise<OidcClientModule> = loadOidcClient,
): UserManagerLike {
  checkConfig(config);
  const key = userStorageKey(config.authority, config.clientId);
  let manager: Promise<UserManager> | null = null;
  const real = () => {
    manager ??= load()
      .then((oidc) => {
        const loaded = newOidcUserManager(config, oidc);
        // Stale login states only pile up from sign-ins, which all come through here.
        void loaded.clearStaleState().catch(() => undefined);
        return loaded;
      })
      .catch((error: unknown) => {
        // A failed chunk load (offline for a moment) must not stick: the next call tries again.
        manager = null;
        throw error;
      });
    return manager;
  };
  return {
    async getUser() {
      const stored = window.localStorage.getItem(key);
      return stored === null ? null : StoredUser.parse(stored);
    },
    signinSilent: async (args) => (await real()).signinSilent(args),
    signinRedirect: async (args) => (await real()).signinRedirect(args),
    signinRedirectCallback: async (url) => (await real()).signinRedirectCallback(url),
    signoutRedirect: async (args) => (await real()).signoutRedirect(args),
    async removeUser() {
      if (manager) await (await real()).removeUser();
      else window.localStorage.removeItem(key);
    },
    async clearStaleState() {
      if (manager) await (await real()).clearStaleState();
    },
    metadataService: {
      // A signed-in visit reads one field of the discovery document; the library stays unloaded.
      getCheckSessionIframe: async () =>
        manager
          ? (await real()).metadataService.getCheckSessionIframe()
          : fetchCheckSessionIframe(config),
    },
  };
}
