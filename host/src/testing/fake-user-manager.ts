import type { UserManagerLike } from '@portal/shared-auth';

/**
 * Stands in for oidc-client-ts' UserManager, whose real counterpart is the identity provider's
 * redirect dance (covered by e2e). Signed in = a stored, unexpired token.
 */
export function fakeUserManager({ signedIn }: { signedIn: boolean }) {
  const now = Math.floor(Date.now() / 1000);
  const stored = signedIn
    ? {
        access_token: 'test-access-token',
        token_type: 'Bearer',
        id_token: 'test-id-token',
        expires_at: now + 3600,
        expires_in: 3600,
        expired: false,
        profile: { sub: 'test-sub' },
        state: undefined,
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
  };
  return manager as typeof manager & UserManagerLike;
}
