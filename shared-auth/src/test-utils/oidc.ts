import * as oidcClient from 'oidc-client-ts';
import { User, type UserManager, type IdTokenClaims } from 'oidc-client-ts';
import type { CurrentUser } from '@portal/contract';
import {
  newOidcUserManager,
  userStorageKey,
  type UserManagerConfig,
} from '../oidc/create-user-manager';
import type { LockManagerLike } from '../oidc/token-manager';

export const AUTHORITY = 'http://idp.test/realms/main';
export const CLIENT_ID = 'frontend';
export const OIDC_BASE = `${AUTHORITY}/protocol/openid-connect`;
export const TOKEN_ENDPOINT = `${OIDC_BASE}/token`;
export const USER_STORAGE_KEY = userStorageKey(AUTHORITY, CLIENT_ID);
export const WHOAMI_URL = 'http://localhost/api/v1/user/whoami';
export const SUB = '6f1c5a1e-2d4b-4c55-9f0e-0a7f6b3c9d21';

/** The portal's settings for the test provider, with metadata given so no discovery is made. */
export const TEST_USER_MANAGER_CONFIG: UserManagerConfig = {
  authority: AUTHORITY,
  clientId: CLIENT_ID,
  overrides: {
    metadata: {
      issuer: AUTHORITY,
      authorization_endpoint: `${OIDC_BASE}/auth`,
      token_endpoint: TOKEN_ENDPOINT,
      end_session_endpoint: `${OIDC_BASE}/logout`,
      userinfo_endpoint: `${OIDC_BASE}/userinfo`,
    },
  },
};

/** The real oidc-client-ts UserManager with those settings (and `callbackBase`, if given). */
export function testUserManager(callbackBase?: string): UserManager {
  return newOidcUserManager({ ...TEST_USER_MANAGER_CONFIG, ...(callbackBase ? { callbackBase } : {}) }, oidcClient);
}

export interface StoredUserOptions {
  expiresIn: number;
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
  sub?: string;
}

export async function storeUser(
  manager: UserManager,
  {
    expiresIn,
    accessToken = 'at-1',
    refreshToken = 'rt-1',
    idToken = 'id-1',
    sub = SUB,
  }: StoredUserOptions,
): Promise<User> {
  const now = Math.floor(Date.now() / 1000);
  const profile = {
    sub,
    iss: AUTHORITY,
    aud: CLIENT_ID,
    iat: now,
    exp: now + expiresIn,
  } as IdTokenClaims;
  const user = new User({
    access_token: accessToken,
    refresh_token: refreshToken,
    id_token: idToken,
    token_type: 'Bearer',
    scope: 'openid profile email',
    profile,
    expires_at: now + expiresIn,
  });
  await manager.storeUser(user);
  return user;
}

export function currentUserFixture(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: SUB,
    email: 'lena.learner@example.test',
    firstName: 'Lena',
    lastName: 'Learner',
    language: 'en',
    roleName: 'learner',
    organisationId: 1,
    organisationName: 'Demo Hospital',
    isBrightspaceAuthRequired: false,
    brightspaceUserMismatch: false,
    permissions: ['global.access_sims', 'global.view_own_reports'],
    ...overrides,
  };
}

/**
 * jsdom has no Web Locks; this is the exclusive-mode behaviour of `navigator.locks.request`
 * (callbacks for one name run one after another), shared by the "tabs" of a test.
 */
export function createInMemoryLocks(): LockManagerLike {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const result = previous.then(callback, callback);
      tails.set(
        name,
        result.catch(() => undefined),
      );
      return result;
    },
  };
}
