import * as oidcClient from 'oidc-client-ts';
import { http, HttpResponse } from 'msw';
import { buildUserManagerSettings, createUserManager } from '../create-user-manager';
import { createTokenManager } from '../token-manager';
import { setupMswServer } from '../../test-utils/msw-server';
import {
  AUTHORITY,
  CLIENT_ID,
  storeUser,
  TEST_USER_MANAGER_CONFIG,
  testUserManager,
  TOKEN_ENDPOINT,
  USER_STORAGE_KEY,
} from '../../test-utils/oidc';

const server = setupMswServer();

const CONFIG = TEST_USER_MANAGER_CONFIG;

/** The library loader, counted: the point of the deferred manager is when it runs. */
const countedLoader = () => jest.fn(async () => oidcClient);

beforeEach(() => localStorage.clear());

describe('where the identity provider returns to', () => {
  it('is the portal root by default', () => {
    const settings = buildUserManagerSettings(CONFIG, oidcClient);
    expect(settings.redirect_uri).toBe(`${window.location.origin}/auth/callback`);
    expect(settings.silent_redirect_uri).toBe(`${window.location.origin}/silent-check-sso.html`);
  });

  it('is under callbackBase for pages framed elsewhere (a launch in a learning platform)', () => {
    const settings = buildUserManagerSettings({ ...CONFIG, callbackBase: '/lti' }, oidcClient);
    expect(settings.redirect_uri).toBe(`${window.location.origin}/lti/auth/callback`);
    expect(settings.silent_redirect_uri).toBe(`${window.location.origin}/lti/silent-check-sso.html`);
  });

  it.each(['lti', '/lti/', '/../x', '//evil.example', '/lti?x=1'])('refuses the callbackBase %s', (callbackBase) => {
    expect(() => createUserManager({ ...CONFIG, callbackBase })).toThrow('`callbackBase` must be a path like /lti');
  });
});

describe('before the library loads', () => {
  it('reads the user oidc-client-ts stored, with the same token, profile and expiry', async () => {
    await storeUser(testUserManager(), { expiresIn: 120, accessToken: 'at-9', sub: 'sub-9' });
    const fromLibrary = await testUserManager().getUser();
    const load = countedLoader();

    const user = await createUserManager(CONFIG, load).getUser();

    expect(user).toMatchObject({
      access_token: 'at-9',
      token_type: 'Bearer',
      id_token: fromLibrary?.id_token,
      expires_at: fromLibrary?.expires_at,
      expires_in: fromLibrary?.expires_in,
      expired: false,
      profile: { sub: 'sub-9' },
    });
    expect(load).not.toHaveBeenCalled();
  });

  it('says a stored user is expired exactly when oidc-client-ts does', async () => {
    await storeUser(testUserManager(), { expiresIn: -5 });
    const user = await createUserManager(CONFIG, countedLoader()).getUser();
    expect(user?.expired).toBe(true);
    expect((await testUserManager().getUser())?.expired).toBe(true);
  });

  it('answers null without a stored user and refuses a corrupt one', async () => {
    const manager = createUserManager(CONFIG, countedLoader());
    expect(await manager.getUser()).toBeNull();
    localStorage.setItem(USER_STORAGE_KEY, '{"profile":');
    await expect(manager.getUser()).rejects.toThrow();
    localStorage.setItem(USER_STORAGE_KEY, '{"profile":{"sub":"x"}}');
    await expect(manager.getUser()).rejects.toThrow('access_token');
  });

  it('signs out locally (removeUser) without loading the library', async () => {
    await storeUser(testUserManager(), { expiresIn: 120 });
    const load = countedLoader();
    const manager = createUserManager(CONFIG, load);
    await manager.removeUser();
    await manager.clearStaleState();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });

  it('reads check_session_iframe from discovery without loading the library', async () => {
    const iframe = `${AUTHORITY}/protocol/openid-connect/login-status-iframe.html`;
    server.use(
      http.get(`${AUTHORITY}/.well-known/openid-configuration`, () =>
        HttpResponse.json({ issuer: AUTHORITY, check_session_iframe: iframe }),
      ),
    );
    const load = countedLoader();
    const manager = createUserManager({ authority: AUTHORITY, clientId: CLIENT_ID }, load);
    await expect(manager.metadataService.getCheckSessionIframe()).resolves.toBe(iframe);
    expect(load).not.toHaveBeenCalled();
    // Given metadata (the tests' settings) is read as given: no iframe there, no request.
    await expect(createUserManager(CONFIG, load).metadataService.getCheckSessionIframe()).resolves.toBeUndefined();
  });

  it('gives the token manager a fresh token without loading the library', async () => {
    await storeUser(testUserManager(), { expiresIn: 300, accessToken: 'at-fresh' });
    const load = countedLoader();
    const tokens = createTokenManager({
      userManager: createUserManager(CONFIG, load),
      locks: null,
    });
    expect(await tokens.getToken()).toEqual({ accessToken: 'at-fresh', tokenType: 'Bearer' });
    expect(load).not.toHaveBeenCalled();
  });
});

describe('when the identity provider is needed', () => {
  it('loads the library once and refreshes a token near expiry through it', async () => {
    const forms: URLSearchParams[] = [];
    server.use(
      http.post(TOKEN_ENDPOINT, async ({ request }) => {
        forms.push(new URLSearchParams(await request.text()));
        return HttpResponse.json({
          access_token: 'at-2',
          token_type: 'Bearer',
          expires_in: 300,
          refresh_token: 'rt-2',
          scope: 'openid profile email',
        });
      }),
    );
    await storeUser(testUserManager(), { expiresIn: 10, refreshToken: 'rt-1' });
    const load = countedLoader();
    const manager = createUserManager(CONFIG, load);
    const tokens = createTokenManager({ userManager: manager, locks: null });

    expect(await tokens.getToken()).toEqual({ accessToken: 'at-2', tokenType: 'Bearer' });
    expect(forms.map((form) => form.get('refresh_token'))).toEqual(['rt-1']);
    // The refreshed user is stored where the deferred reader looks.
    expect((await manager.getUser())?.access_token).toBe('at-2');
    await manager.clearStaleState();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries the load again after a failed one (a chunk that did not arrive)', async () => {
    const load = jest
      .fn<Promise<typeof oidcClient>, []>()
      .mockRejectedValueOnce(new Error('ChunkLoadError'))
      .mockResolvedValue(oidcClient);
    await storeUser(testUserManager(), { expiresIn: 120, idToken: 'id-7' });
    const manager = createUserManager(CONFIG, load);

    await expect(manager.signinSilent()).rejects.toThrow('ChunkLoadError');
    // Second try: the library loads; removeUser now goes through it.
    await manager.clearStaleState();
    await expect(
      manager.signinRedirectCallback('http://localhost/auth/callback'),
    ).rejects.toThrow();
    expect(load).toHaveBeenCalledTimes(2);
    await manager.removeUser();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it('checks its configuration at once', () => {
    expect(() => createUserManager({ authority: '', clientId: CLIENT_ID })).toThrow('authority');
    expect(() => createUserManager({ authority: AUTHORITY, clientId: '' })).toThrow('clientId');
  });
});
