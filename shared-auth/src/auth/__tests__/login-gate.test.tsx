import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ErrorResponse } from 'oidc-client-ts';
import { AuthProvider } from '../auth-provider';
import { LoginGate } from '../login-gate';
import { useAuth } from '../use-auth';
import { setupMswServer } from '../../test-utils/msw-server';
import {
  AUTHORITY,
  CLIENT_ID,
  currentUserFixture,
  storeUser,
  testUserManager,
  TOKEN_ENDPOINT,
  USER_STORAGE_KEY,
  WHOAMI_URL,
} from '../../test-utils/oidc';
import { renderWithAuth } from '../../test-utils/render-with-auth';

const server = setupMswServer();

function Welcome() {
  const { user } = useAuth();
  return <h1>Welcome {user?.firstName}</h1>;
}

function whoamiAnswers(status: number, body: object = currentUserFixture()) {
  const authorization: (string | null)[] = [];
  server.use(
    http.get(WHOAMI_URL, ({ request }) => {
      authorization.push(request.headers.get('Authorization'));
      return HttpResponse.json(body, { status });
    }),
  );
  return authorization;
}

/** The browser leaving for the identity provider is the one thing jsdom cannot do. */
function stubNavigation(manager = testUserManager()) {
  const signinRedirect = jest.spyOn(manager, 'signinRedirect').mockResolvedValue(undefined);
  const signoutRedirect = jest.spyOn(manager, 'signoutRedirect').mockImplementation(async () => {
    await manager.removeUser();
  });
  return { manager, signinRedirect, signoutRedirect };
}

/** No SSO session at the identity provider: prompt=none answers login_required. */
function noSsoSession(manager: ReturnType<typeof testUserManager>) {
  return jest
    .spyOn(manager, 'signinSilent')
    .mockRejectedValue(new ErrorResponse({ error: 'login_required' }));
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

it('shows the fallback while loading, then the nested route once whoami has answered', async () => {
  const authorization = whoamiAnswers(200);
  const { manager } = stubNavigation();
  await storeUser(manager, { expiresIn: 300, accessToken: 'valid-token' });

  renderWithAuth(<Welcome />, { manager, path: '/simulation' });

  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  expect(await screen.findByRole('heading', { name: 'Welcome Lena' })).toBeInTheDocument();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(authorization).toEqual(['Bearer valid-token']);
});

it('checks for an SSO session without forcing login and, without one, logs in with the current path', async () => {
  const { manager, signinRedirect } = stubNavigation();
  const silent = noSsoSession(manager);

  renderWithAuth(<Welcome />, {
    manager,
    path: '/report/learner?page=2#top',
    wrapper: (ui) => <StrictMode>{ui}</StrictMode>,
  });

  await waitFor(() => expect(signinRedirect).toHaveBeenCalled());
  expect(silent).toHaveBeenCalledTimes(1);
  expect(signinRedirect).toHaveBeenCalledTimes(1);
  expect(signinRedirect).toHaveBeenCalledWith({
    state: { returnPath: '/report/learner?page=2#top' },
  });
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
});

it('needs no router: shows its children once signed in, and logs in from the browser location', async () => {
  const { manager, signinRedirect } = stubNavigation();
  noSsoSession(manager);
  window.history.replaceState(null, '', '/report/7?tab=images');
  const page = (
    <AuthProvider authority={AUTHORITY} clientId={CLIENT_ID} apiBaseUrl="" userManager={manager}>
      <LoginGate fallback={<p role="status">Loading...</p>}>
        <Welcome />
      </LoginGate>
    </AuthProvider>
  );

  const { unmount } = render(page);
  await waitFor(() =>
    expect(signinRedirect).toHaveBeenCalledWith({ state: { returnPath: '/report/7?tab=images' } }),
  );
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  unmount();

  whoamiAnswers(200);
  await storeUser(manager, { expiresIn: 300 });
  render(page);
  expect(await screen.findByRole('heading', { name: 'Welcome Lena' })).toBeInTheDocument();
});

it('uses an SSO session found by the silent check', async () => {
  whoamiAnswers(200);
  const { manager, signinRedirect } = stubNavigation();
  jest
    .spyOn(manager, 'signinSilent')
    .mockImplementation(async () => storeUser(manager, { expiresIn: 300 }));

  renderWithAuth(<Welcome />, { manager });

  expect(await screen.findByRole('heading', { name: 'Welcome Lena' })).toBeInTheDocument();
  expect(signinRedirect).not.toHaveBeenCalled();
});

it("logs 'A login error occurred' and logs out 10 s later when whoami fails", async () => {
  jest.useFakeTimers();
  whoamiAnswers(500, { detail: 'boom' });
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const { manager, signoutRedirect } = stubNavigation();
  await storeUser(manager, { expiresIn: 300, idToken: 'the-id-token' });

  renderWithAuth(<Welcome />, { manager });

  await waitFor(() =>
    expect(error).toHaveBeenCalledWith(
      'A login error occurred',
      expect.objectContaining({ message: 'Failed' }),
    ),
  );
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');

  await act(async () => {
    jest.advanceTimersByTime(9_999);
  });
  expect(signoutRedirect).not.toHaveBeenCalled();

  await act(async () => {
    jest.advanceTimersByTime(1);
  });
  expect(signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'the-id-token' });
  expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
});

it('does not log out after the gate has unmounted', async () => {
  jest.useFakeTimers();
  whoamiAnswers(500, { detail: 'boom' });
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const { manager, signoutRedirect } = stubNavigation();
  await storeUser(manager, { expiresIn: 300 });

  const { unmount } = renderWithAuth(<Welcome />, { manager });
  await waitFor(() =>
    expect(error).toHaveBeenCalledWith('A login error occurred', expect.any(Error)),
  );
  unmount();
  jest.advanceTimersByTime(20_000);

  expect(signoutRedirect).not.toHaveBeenCalled();
});

it('treats a 401 from whoami as a login error and clears the stored token', async () => {
  whoamiAnswers(401, { detail: 'Invalid token' });
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const { manager, signinRedirect } = stubNavigation();
  await storeUser(manager, { expiresIn: 300 });

  renderWithAuth(<Welcome />, { manager });

  await waitFor(() =>
    expect(error).toHaveBeenCalledWith('A login error occurred', expect.any(Error)),
  );
  expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  expect(signinRedirect).not.toHaveBeenCalled();
});

it('refreshes a nearly expired stored token on start, and logs in again when the refresh is refused', async () => {
  server.use(
    http.post(TOKEN_ENDPOINT, () =>
      HttpResponse.json(
        { error: 'invalid_grant', error_description: 'Session not active' },
        { status: 400 },
      ),
    ),
  );
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { manager, signinRedirect } = stubNavigation();
  await storeUser(manager, { expiresIn: 10 });

  renderWithAuth(<Welcome />, { manager, path: '/admin/organisation' });

  await waitFor(() =>
    expect(signinRedirect).toHaveBeenCalledWith({ state: { returnPath: '/admin/organisation' } }),
  );
  expect(warn).toHaveBeenCalledWith('Token expired, please login again.');
  expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
});

it('follows a logout in another tab', async () => {
  whoamiAnswers(200);
  const { manager, signinRedirect } = stubNavigation();
  await storeUser(manager, { expiresIn: 300 });
  renderWithAuth(<Welcome />, { manager, path: '/report' });
  await screen.findByRole('heading', { name: 'Welcome Lena' });

  // What the other tab's signoutRedirect does to the shared storage, as this tab sees it.
  const oldValue = localStorage.getItem(USER_STORAGE_KEY);
  localStorage.removeItem(USER_STORAGE_KEY);
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: USER_STORAGE_KEY,
        oldValue,
        newValue: null,
        storageArea: localStorage,
      }),
    );
  });

  await waitFor(() =>
    expect(signinRedirect).toHaveBeenCalledWith({ state: { returnPath: '/report' } }),
  );
  expect(screen.getByRole('status')).toBeInTheDocument();
});

it('hands out the current access token through useAuth().getAccessToken', async () => {
  whoamiAnswers(200);
  const { manager } = stubNavigation();
  await storeUser(manager, { expiresIn: 300, accessToken: 'the-access-token' });
  let getAccessToken: (() => Promise<string | null>) | undefined;
  function Probe() {
    getAccessToken = useAuth().getAccessToken;
    return <p>ready</p>;
  }

  renderWithAuth(<Probe />, { manager });
  await screen.findByText('ready');

  await expect(getAccessToken?.()).resolves.toBe('the-access-token');
});

it('reloads the signed-in user through useAuth().reloadUser, and keeps them when whoami fails', async () => {
  whoamiAnswers(200, currentUserFixture({ brightspaceUserMismatch: true }));
  const { manager } = stubNavigation();
  await storeUser(manager, { expiresIn: 300 });
  let auth: ReturnType<typeof useAuth> | undefined;
  function Probe() {
    auth = useAuth();
    return <p>{auth.user?.brightspaceUserMismatch ? 'mismatch' : 'matched'}</p>;
  }

  renderWithAuth(<Probe />, { manager });
  await screen.findByText('mismatch');

  whoamiAnswers(200, currentUserFixture({ brightspaceUserMismatch: false }));
  await act(() => auth!.reloadUser());
  expect(screen.getByText('matched')).toBeInTheDocument();

  whoamiAnswers(500);
  await expect(act(() => auth!.reloadUser())).rejects.toThrow();
  expect(screen.getByText('matched')).toBeInTheDocument();
  expect(auth?.status).toBe('authenticated');
});

it('starts the sign-in with kc_idp_hint and login_hint when asked (an LTI launch signs in by the launch)', async () => {
  const { manager, signinRedirect } = stubNavigation();
  noSsoSession(manager);
  function BrokeredLogin() {
    const { status, login } = useAuth();
    return (
      <button
        type="button"
        disabled={status !== 'unauthenticated'}
        onClick={() => void login('/lti/launch?launchId=l-1', { idpHint: 'lti', loginHint: 'l-1' })}
      >
        Sign in by launch
      </button>
    );
  }
  render(
    <AuthProvider authority={AUTHORITY} clientId={CLIENT_ID} apiBaseUrl="" userManager={manager}>
      <BrokeredLogin />
    </AuthProvider>,
  );
  const button = await screen.findByRole('button', { name: 'Sign in by launch' });
  await waitFor(() => expect(button).toBeEnabled());
  act(() => button.click());
  await waitFor(() => expect(signinRedirect).toHaveBeenCalledTimes(1));
  expect(signinRedirect).toHaveBeenCalledWith({
    state: { returnPath: '/lti/launch?launchId=l-1' },
    extraQueryParams: { kc_idp_hint: 'lti' },
    login_hint: 'l-1',
  });
});
