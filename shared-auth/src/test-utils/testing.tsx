// `@portal/shared-auth/testing`: the signed-in half of every front end's test harness (the other
// half, UI providers and router, is `@portal/shared-ui/testing`, which takes this module as an
// argument because shared-ui does not depend on shared-auth). Tests only; no bundle imports it.
import { useState, type ReactNode } from 'react';
import { http, HttpResponse } from 'msw';
import type { SWRConfiguration } from 'swr';
import type { CurrentUser } from '@portal/contract';
import { AuthProvider } from '../auth/auth-provider';
import type { UserManagerLike } from '../oidc/create-user-manager';
import { PortalSWRConfig } from '../swr/portal-swr-config';

export const TEST_USER_ID = '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0001';
export const TEST_AUTHORITY = 'http://idp.test/realms/main';
export const TEST_CLIENT_ID = 'frontend';
export const TEST_ACCESS_TOKEN = 'test-access-token';

/** The user whoami answers: a learner of Demo Hospital unless overridden. */
export function currentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: TEST_USER_ID,
    email: 'learner@demo.test',
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

/** GET /api/v1/user/whoami answering `user`. */
export const whoami = (user: CurrentUser) =>
  http.get('/api/v1/user/whoami', () => HttpResponse.json<CurrentUser>(user));

/**
 * Stands in for oidc-client-ts' UserManager, whose real counterpart is the identity provider's
 * redirect dance (covered by e2e). Signed in = a stored, unexpired token. Its methods are jest
 * mocks, so a test can see that a login or logout was asked for.
 */
export function fakeUserManager({ signedIn = true }: { signedIn?: boolean } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const stored = signedIn
    ? {
        access_token: TEST_ACCESS_TOKEN,
        token_type: 'Bearer',
        id_token: 'test-id-token',
        expires_at: now + 3600,
        expires_in: 3600,
        expired: false,
        profile: { sub: 'test-sub' },
        state: undefined,
        session_state: null,
      }
    : null;
  const manager = {
    getUser: jest.fn(async () => stored),
    signinSilent: jest.fn(async () => null),
    signinRedirect: jest.fn(async () => undefined),
    signinRedirectCallback: jest.fn(async () => {
      throw new Error('no callback in tests');
    }),
    signoutRedirect: jest.fn(async () => undefined),
    removeUser: jest.fn(async () => undefined),
    clearStaleState: jest.fn(async () => undefined),
    // A provider without session management: component tests start no login-status iframe.
    metadataService: { getCheckSessionIframe: jest.fn(async () => undefined) },
  };
  return manager as typeof manager & UserManagerLike;
}

/**
 * SWR for tests: a fresh cache per render, so one test's answers never leak into the next; no
 * deduping and no retries, so a failed load shows at once.
 */
export const testSwrConfig = (): SWRConfiguration => ({
  provider: () => new Map(),
  dedupingInterval: 0,
  shouldRetryOnError: false,
});

export interface SignedInProvidersProps {
  children?: ReactNode;
  userManager?: UserManagerLike;
  /** Overrides of the test SWR settings. */
  swr?: SWRConfiguration;
}

/** AuthProvider and PortalSWRConfig as the host nests them, signed in, with a per-test cache. */
export function SignedInProviders({ children, userManager, swr }: SignedInProvidersProps) {
  // Fixed for the life of the render: a new manager or SWR value would restart sign-in or the cache.
  const [manager] = useState(() => userManager ?? fakeUserManager());
  const [swrValue] = useState(() => ({ ...testSwrConfig(), ...swr }));
  return (
    <AuthProvider authority={TEST_AUTHORITY} clientId={TEST_CLIENT_ID} apiBaseUrl="" userManager={manager}>
      <PortalSWRConfig value={swrValue}>{children}</PortalSWRConfig>
    </AuthProvider>
  );
}
