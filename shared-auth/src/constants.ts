/** Where the identity provider sends the browser back after login (registered redirect URI). */
export const AUTH_CALLBACK_PATH = '/auth/callback';
/** The page the hidden prompt=none iframe lands on; the host serves it (see silent-callback.ts). */
export const SILENT_CALLBACK_PATH = '/silent-check-sso.html';
/** Registered post-logout redirect URI. */
export const LOGOUT_PATH = '/logout';

export const OIDC_SCOPE = 'openid profile email';
/** Keycloak's application-initiated action parameter, and its password change. */
export const KC_ACTION_PARAM = 'kc_action';
export const UPDATE_PASSWORD_ACTION = 'UPDATE_PASSWORD';
/** Keycloak's hint naming the brokered identity provider to sign in with (skips its form). */
export const KC_IDP_HINT_PARAM = 'kc_idp_hint';
/** docs/requirements.md#limits-and-defaults: refresh when the access token has this many seconds or fewer left. */
export const TOKEN_REFRESH_THRESHOLD_SECONDS = 30;
/** docs/requirements.md#limits-and-defaults: stored login callback state lives 1 hour. */
export const STALE_STATE_AGE_SECONDS = 3600;
/**
 * docs/requirements.md#limits-and-defaults: identity message timeout 10 s. How long the portal
 * waits for a message from the identity provider's frames: the silent sign-in's answer, and the
 * login-status iframe's answer to one check (session-monitor.ts).
 */
export const IDENTITY_MESSAGE_TIMEOUT_SECONDS = 10;
/** The silent (prompt=none) sign-in's share of the identity message timeout. */
export const SILENT_REQUEST_TIMEOUT_SECONDS = IDENTITY_MESSAGE_TIMEOUT_SECONDS;
/**
 * docs/requirements.md#limits-and-defaults: login-status check 5 s. How often a signed-in tab asks
 * the identity provider's login-status iframe whether its session still stands (session-monitor.ts).
 */
export const CHECK_SESSION_INTERVAL_SECONDS = 5;
/** docs/requirements.md#limits-and-defaults: logout delay after a login error. */
export const LOGIN_ERROR_LOGOUT_DELAY_MS = 10_000;
/** Web Locks name shared by every tab of the portal, so only one tab refreshes at a time. */
export const TOKEN_REFRESH_LOCK_NAME = 'portal-token-refresh';

export const WHOAMI_PATH = '/api/v1/user/whoami';

/** Log lines fixed by docs/requirements.md#screens, #behaviour; English on purpose, they are not user-visible. */
export const TOKEN_EXPIRED_MESSAGE = 'Token expired, please login again.';
export const LOGIN_ERROR_MESSAGE = 'A login error occurred';
export const TOKEN_NOT_FOUND_MESSAGE = 'Token not found';
export const WHOAMI_FAILED_MESSAGE = 'Failed';
