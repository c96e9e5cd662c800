import { delay, http, HttpResponse } from 'msw';
import { createTokenManager } from '../token-manager';
import { setupMswServer } from '../../test-utils/msw-server';
import {
  createInMemoryLocks,
  storeUser,
  testUserManager,
  TOKEN_ENDPOINT,
  USER_STORAGE_KEY,
} from '../../test-utils/oidc';

const server = setupMswServer();

/**
 * The token endpoint as identity/ and Keycloak ("Revoke Refresh Token", max reuse 0) answer it:
 * each refresh token works once; reusing a rotated one is refused with 400 invalid_grant and
 * revokes the grant, so the newest refresh token stops working too.
 */
function rotatingTokenEndpoint(firstRefreshToken = 'rt-1') {
  const seen: URLSearchParams[] = [];
  let valid: string | null = firstRefreshToken;
  const rotated = new Set<string>();
  let issued = 1;
  server.use(
    http.post(TOKEN_ENDPOINT, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      seen.push(form);
      // Long enough for a second caller to arrive while the first refresh is in flight.
      await delay(30);
      const presented = form.get('refresh_token') ?? '';
      if (rotated.has(presented)) valid = null;
      if (form.get('grant_type') !== 'refresh_token' || presented !== valid) {
        return HttpResponse.json(
          { error: 'invalid_grant', error_description: 'Token is not active' },
          { status: 400 },
        );
      }
      rotated.add(valid);
      issued += 1;
      valid = `rt-${issued}`;
      return HttpResponse.json({
        access_token: `at-${issued}`,
        token_type: 'Bearer',
        expires_in: 300,
        refresh_token: valid,
        scope: 'openid profile email',
      });
    }),
  );
  return { seen };
}

beforeEach(() => localStorage.clear());

describe('getToken', () => {
  it('returns the stored token without calling the identity provider while more than 30 s are left', async () => {
    const { seen } = rotatingTokenEndpoint();
    const manager = testUserManager();
    await storeUser(manager, { expiresIn: 45 });

    const tokens = createTokenManager({ userManager: manager, locks: null });

    await expect(tokens.getToken()).resolves.toEqual({ accessToken: 'at-1', tokenType: 'Bearer' });
    expect(seen).toHaveLength(0);
  });

  it('refreshes with the refresh token grant when 30 s or fewer are left, and stores the new token', async () => {
    const { seen } = rotatingTokenEndpoint();
    const manager = testUserManager();
    await storeUser(manager, { expiresIn: 20 });

    const tokens = createTokenManager({ userManager: manager, locks: null });

    await expect(tokens.getToken()).resolves.toEqual({ accessToken: 'at-2', tokenType: 'Bearer' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.get('grant_type')).toBe('refresh_token');
    expect(seen[0]?.get('refresh_token')).toBe('rt-1');
    const stored = await manager.getUser();
    expect(stored?.access_token).toBe('at-2');
    expect(stored?.refresh_token).toBe('rt-2');
  });

  it('clears the stored user and logs "Token expired, please login again." when the refresh is refused with 400', async () => {
    rotatingTokenEndpoint('some-other-token');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const onSessionExpired = jest.fn();
    const manager = testUserManager();
    await storeUser(manager, { expiresIn: 10 });

    const tokens = createTokenManager({ userManager: manager, locks: null, onSessionExpired });

    await expect(tokens.getToken()).resolves.toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(warn).toHaveBeenCalledWith('Token expired, please login again.');
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('keeps the session on a network failure and uses the old token while it is still valid', async () => {
    server.use(http.post(TOKEN_ENDPOINT, () => HttpResponse.error()));
    const manager = testUserManager();
    await storeUser(manager, { expiresIn: 15 });

    const tokens = createTokenManager({ userManager: manager, locks: null });

    await expect(tokens.getToken()).resolves.toEqual({ accessToken: 'at-1', tokenType: 'Bearer' });
    expect(localStorage.getItem(USER_STORAGE_KEY)).not.toBeNull();
  });

  it('returns null when nobody is signed in', async () => {
    const tokens = createTokenManager({ userManager: testUserManager(), locks: null });
    await expect(tokens.getToken()).resolves.toBeNull();
  });

  it('refreshes once for concurrent requests in one tab', async () => {
    const { seen } = rotatingTokenEndpoint();
    const manager = testUserManager();
    await storeUser(manager, { expiresIn: 5 });
    const tokens = createTokenManager({ userManager: manager, locks: null });

    const results = await Promise.all([tokens.getToken(), tokens.getToken(), tokens.getToken()]);

    expect(seen).toHaveLength(1);
    expect(results.map((r) => r?.accessToken)).toEqual(['at-2', 'at-2', 'at-2']);
  });

  it('refreshes once when two tabs need a new token at the same time, even though refresh tokens rotate', async () => {
    const { seen } = rotatingTokenEndpoint();
    const locks = createInMemoryLocks();
    // Two tabs: each has its own UserManager and token manager; they share localStorage and locks.
    const firstTab = testUserManager();
    const secondTab = testUserManager();
    await storeUser(firstTab, { expiresIn: 5 });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

    const [first, second] = await Promise.all([
      createTokenManager({ userManager: firstTab, locks }).getToken(),
      createTokenManager({ userManager: secondTab, locks }).getToken(),
    ]);

    expect(seen).toHaveLength(1);
    expect(first?.accessToken).toBe('at-2');
    expect(second?.accessToken).toBe('at-2');
    expect(warn).not.toHaveBeenCalled();
    expect((await secondTab.getUser())?.refresh_token).toBe('rt-2');
    warn.mockRestore();
  });

  it('would log every tab out without the lock (why the lock exists)', async () => {
    const { seen } = rotatingTokenEndpoint();
    const firstTab = testUserManager();
    const secondTab = testUserManager();
    await storeUser(firstTab, { expiresIn: 5 });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

    await Promise.all([
      createTokenManager({ userManager: firstTab, locks: null }).getToken(),
      createTokenManager({ userManager: secondTab, locks: null }).getToken(),
    ]);

    expect(seen).toHaveLength(2);
    expect(seen.map((form) => form.get('refresh_token'))).toEqual(['rt-1', 'rt-1']);
    expect(warn).toHaveBeenCalledWith('Token expired, please login again.');
    // The reuse revoked the grant: the refresh token the faster tab got is dead as well.
    await storeUser(firstTab, { expiresIn: 5, refreshToken: 'rt-2' });
    await expect(
      createTokenManager({ userManager: firstTab, locks: null }).getToken(),
    ).resolves.toBeNull();
    warn.mockRestore();
  });

  it('refreshes once for three tabs: those that waited for the lock take what the first one stored', async () => {
    const { seen } = rotatingTokenEndpoint();
    const locks = createInMemoryLocks();
    const tabs = [testUserManager(), testUserManager(), testUserManager()];
    await storeUser(tabs[0]!, { expiresIn: 5 });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

    // Each tab decides it must refresh before any of them holds the lock.
    const results = await Promise.all(
      tabs.map((tab) => createTokenManager({ userManager: tab, locks }).getToken()),
    );

    expect(seen.map((form) => form.get('refresh_token'))).toEqual(['rt-1']);
    expect(results.map((result) => result?.accessToken)).toEqual(['at-2', 'at-2', 'at-2']);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('a tab that starts while another refreshes takes the stored user instead of spending its refresh token', async () => {
    const { seen } = rotatingTokenEndpoint();
    const locks = createInMemoryLocks();
    const refreshingTab = testUserManager();
    const startingTab = testUserManager();
    await storeUser(refreshingTab, { expiresIn: 5 });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);

    // The starting tab found no user a moment ago (auth-provider) and asks for a silent sign-in
    // while the other tab holds the lock; by the time it gets the lock a fresh user is stored.
    const refreshed = createTokenManager({ userManager: refreshingTab, locks }).getToken();
    const started = createTokenManager({ userManager: startingTab, locks }).signInSilently();

    expect((await refreshed)?.accessToken).toBe('at-2');
    expect((await started)?.access_token).toBe('at-2');
    expect(seen.map((form) => form.get('refresh_token'))).toEqual(['rt-1']);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
