import { webcrypto } from 'node:crypto';
import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { OidcClient } from 'oidc-client-ts';
import { BrowserRouter, Outlet, Route, Routes, useParams } from 'react-router-dom';
import { AuthProvider } from '../auth-provider';
import { LoginGate } from '../login-gate';
import { AUTH_CALLBACK_PATH } from '../../constants';
import { setupMswServer } from '../../test-utils/msw-server';
import {
  AUTHORITY,
  CLIENT_ID,
  currentUserFixture,
  SUB,
  testUserManager,
  TOKEN_ENDPOINT,
  WHOAMI_URL,
} from '../../test-utils/oidc';

const server = setupMswServer();

// As the host mounts it: protected routes render in the gate's outlet.
const gate = (
  <LoginGate fallback={<p role="status">Loading...</p>}>
    <Outlet />
  </LoginGate>
);

beforeAll(() => {
  // PKCE S256 needs SubtleCrypto, which jsdom lacks; Node's is the same Web Crypto API.
  if (!globalThis.crypto.subtle) {
    Object.defineProperty(globalThis.crypto, 'subtle', {
      value: webcrypto.subtle,
      configurable: true,
    });
  }
});

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

function base64Url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An ID token as the identity provider issues it (oidc-client-ts reads claims, the API checks signatures). */
function idToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: AUTHORITY,
    sub: SUB,
    aud: CLIENT_ID,
    azp: CLIENT_ID,
    iat: now,
    exp: now + 300,
  };
  return `${base64Url({ alg: 'RS256', typ: 'JWT' })}.${base64Url(claims)}.c2lnbmF0dXJl`;
}

function Report() {
  const { reportId } = useParams();
  return <h1>Report {reportId}</h1>;
}

it('redeems the code at /auth/callback and returns to the path carried in the login state', async () => {
  const tokenRequests: URLSearchParams[] = [];
  server.use(
    http.post(TOKEN_ENDPOINT, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      tokenRequests.push(form);
      return HttpResponse.json({
        access_token: 'fresh-access-token',
        token_type: 'Bearer',
        expires_in: 300,
        refresh_token: 'fresh-refresh-token',
        id_token: idToken(),
        scope: 'openid profile email',
      });
    }),
    http.get(WHOAMI_URL, () => HttpResponse.json(currentUserFixture())),
  );
  const manager = testUserManager();
  // What signinRedirect stored before the browser left for the identity provider.
  const request = await new OidcClient(manager.settings).createSigninRequest({
    request_type: 'si:r',
    state: { returnPath: '/report/7?tab=images' },
  });
  window.history.replaceState(
    null,
    '',
    `${AUTH_CALLBACK_PATH}?code=the-code&state=${request.state.id}`,
  );

  render(
    <AuthProvider authority={AUTHORITY} clientId={CLIENT_ID} apiBaseUrl="" userManager={manager}>
      <BrowserRouter>
        <Routes>
          <Route element={gate}>
            <Route path="/report/:reportId" element={<Report />} />
          </Route>
          <Route path="*" element={gate} />
        </Routes>
      </BrowserRouter>
    </AuthProvider>,
  );

  expect(await screen.findByRole('heading', { name: 'Report 7' })).toBeInTheDocument();
  expect(`${window.location.pathname}${window.location.search}`).toBe('/report/7?tab=images');
  expect(tokenRequests[0]?.get('grant_type')).toBe('authorization_code');
  expect(tokenRequests[0]?.get('code')).toBe('the-code');
  expect(tokenRequests[0]?.get('code_verifier')).toMatch(/.{43,}/);
  expect((await manager.getUser())?.refresh_token).toBe('fresh-refresh-token');
});

it('redeems the code under its callbackBase (a launch framed by a learning platform)', async () => {
  const tokenRequests: URLSearchParams[] = [];
  server.use(
    http.post(TOKEN_ENDPOINT, async ({ request }) => {
      tokenRequests.push(new URLSearchParams(await request.text()));
      return HttpResponse.json({
        access_token: 'framed-access-token',
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken(),
        scope: 'openid profile email',
      });
    }),
    http.get(WHOAMI_URL, () => HttpResponse.json(currentUserFixture())),
  );
  const manager = testUserManager('/lti');
  const request = await new OidcClient(manager.settings).createSigninRequest({
    request_type: 'si:r',
    state: { returnPath: '/lti/report/7' },
  });
  window.history.replaceState(null, '', `/lti/auth/callback?code=the-code&state=${request.state.id}`);

  render(
    <AuthProvider authority={AUTHORITY} clientId={CLIENT_ID} callbackBase="/lti" apiBaseUrl="" userManager={manager}>
      <BrowserRouter>
        <Routes>
          <Route element={gate}>
            <Route path="/lti/report/:reportId" element={<Report />} />
          </Route>
          <Route path="*" element={gate} />
        </Routes>
      </BrowserRouter>
    </AuthProvider>,
  );

  expect(await screen.findByRole('heading', { name: 'Report 7' })).toBeInTheDocument();
  expect(tokenRequests[0]?.get('code')).toBe('the-code');
  // The token request names the redirect URI the sign-in went out with, as the provider checks.
  expect(tokenRequests[0]?.get('redirect_uri')).toBe(`${window.location.origin}/lti/auth/callback`);
});

it('treats a callback it cannot redeem as a login error', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  window.history.replaceState(null, '', `${AUTH_CALLBACK_PATH}?code=the-code&state=unknown-state`);

  render(
    <AuthProvider
      authority={AUTHORITY}
      clientId={CLIENT_ID}
      apiBaseUrl=""
      userManager={testUserManager()}
    >
      <BrowserRouter>
        <Routes>
          <Route path="*" element={gate} />
        </Routes>
      </BrowserRouter>
    </AuthProvider>,
  );

  await waitFor(() =>
    expect(error).toHaveBeenCalledWith('A login error occurred', expect.any(Error)),
  );
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  error.mockRestore();
});
