export {
  AUTH_CALLBACK_PATH,
  SILENT_CALLBACK_PATH,
  LOGOUT_PATH,
  TOKEN_REFRESH_THRESHOLD_SECONDS,
  TOKEN_REFRESH_LOCK_NAME,
  LOGIN_ERROR_LOGOUT_DELAY_MS,
} from './constants';

export { AuthProvider, type AuthProviderProps } from './auth/auth-provider';
export { useAuth } from './auth/use-auth';
export type { AuthContextValue, AuthState, AuthStatus, LoginOptions } from './auth/auth-context';
export { LoginGate, type LoginGateProps } from './auth/login-gate';

export { hasAnyPermission, type Permission } from '@portal/contract/permissions';
export { usePermissions } from './permissions/use-permissions';
export { RequirePermission, type RequirePermissionProps } from './permissions/require-permission';

export {
  createApiClient,
  withQuery,
  type ApiClient,
  type ApiClientOptions,
  type ApiResult,
  type HttpMethod,
  type Query,
  type RequestOptions,
} from './api/create-api-client';
export { useApiClient } from './api/use-api-client';
export { ApiError, NotFoundError, UnauthorizedError, TokenNotFoundError } from './api/errors';

export {
  PortalSWRConfig,
  PORTAL_SWR_DEFAULTS,
  type PortalSWRConfigProps,
} from './swr/portal-swr-config';
export { useApi } from './swr/use-api';
export { retryDelay, isRetryable } from './swr/retry';

export { createUserManager, type UserManagerLike } from './oidc/create-user-manager';
export { createTokenManager, type AccessToken, type TokenManager } from './oidc/token-manager';
export { handleSilentCallback, SILENT_CHECK_SSO_HTML } from './oidc/silent-callback';
