import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { BrightspaceAuthStart, BrightspaceAuthStartResponse, CurrentUser } from '@portal/contract';
import { Outlet } from '@portal/shared-ui';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { whoami } from '../../../testing/handlers';
import { ADMIN_PERMISSIONS, currentUser, USER_ID } from '../../../testing/fixtures';
import { useBrightspaceGuard } from '../use-brightspace-guard';
import { BrightspaceMismatchPage } from '../components/brightspace-mismatch-page';
import { BrightspaceAuthErrorPage } from '../components/brightspace-auth-error-page';
import { BRIGHTSPACE_AUTH_START_PATH } from '../api/start-brightspace-auth';
import { BRIGHTSPACE_AUTH_RESET_PATH } from '../api/reset-brightspace-auth';

const server = setupTestServer();

afterEach(() => sessionStorage.clear());

/** The guard as the layout runs it, with the browser's full-page navigation observed. */
function GuardedArea({ assign }: { assign: (url: string) => void }) {
  useBrightspaceGuard(assign);
  return <Outlet />;
}

function renderGuarded(user: CurrentUser, route: string) {
  const assign = jest.fn();
  const utils = renderApp({
    server,
    route,
    user,
    routes: [
      {
        element: <GuardedArea assign={assign} />,
        children: [
          { path: '/brightspace-user-mismatch', element: <BrightspaceMismatchPage /> },
          { path: '/simulation/*', element: <p>Simulations area</p> },
          { path: '/report/*', element: <p>Reports area</p> },
          { path: '/', element: <p>Home</p> },
        ],
      },
    ],
  });
  return { ...utils, assign };
}

function startHandler(onBody: (body: BrightspaceAuthStart) => void, status = 200) {
  return http.post(BRIGHTSPACE_AUTH_START_PATH, async ({ request }) => {
    const body = (await request.json()) as BrightspaceAuthStart;
    onBody(body);
    const url = `/api/brightspace-auth?${new URLSearchParams({ redirect_path: body.redirectPath, state: 'state-123' })}`;
    return status === 200
      ? HttpResponse.json<BrightspaceAuthStartResponse>({ url })
      : HttpResponse.json({ detail: 'Not found.' }, { status });
  });
}

describe('Brightspace guard', () => {
  it('sends a user Brightspace must still authenticate there, full page, back to where they were', async () => {
    const bodies: BrightspaceAuthStart[] = [];
    server.use(startHandler((b) => bodies.push(b)));
    const { assign } = renderGuarded(currentUser({ isBrightspaceAuthRequired: true }), '/report/12?tab=evidence');

    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('/api/brightspace-auth?redirect_path=%2Freport%2F12%3Ftab%3Devidence&state=state-123'),
    );
    expect(bodies).toEqual([{ redirectPath: '/report/12?tab=evidence' }]);
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('keeps the portal usable when the sign-in cannot be started', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(startHandler(() => undefined, 404));
    const { assign } = renderGuarded(currentUser({ isBrightspaceAuthRequired: true }), '/simulation');

    await waitFor(() => expect(error).toHaveBeenCalledWith('Starting the Brightspace sign-in failed', expect.any(Error)));
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByText('Simulations area')).toBeInTheDocument();
    error.mockRestore();
  });

  it('does nothing for a user without either flag', async () => {
    const bodies: BrightspaceAuthStart[] = [];
    server.use(startHandler((b) => bodies.push(b)));
    const { assign, router } = renderGuarded(currentUser(), '/simulation');
    expect(await screen.findByText('Simulations area')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/simulation');
    expect(assign).not.toHaveBeenCalled();
    expect(bodies).toEqual([]);
  });

  it('sends an administrator with a mismatch to the mismatch page, with where they were', async () => {
    const { router } = renderGuarded(
      currentUser({ brightspaceUserMismatch: true, permissions: ADMIN_PERMISSIONS }),
      '/report/7?x=1',
    );
    expect(await screen.findByRole('heading', { name: 'Brightspace user mismatch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/brightspace-user-mismatch');
    expect(router.state.location.state).toEqual({ from: '/report/7?x=1' });
  });

  it('sends a learner with a mismatch there too, who is turned away to / and not sent back', async () => {
    const { router } = renderGuarded(currentUser({ brightspaceUserMismatch: true }), '/simulation/1');
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem('portal.brightspaceMismatchDismissed')).toBe(USER_ID);
    // Still there after the guard had every chance to run again, and on the next navigation.
    await act(() => router.navigate('/report'));
    expect(await screen.findByText('Reports area')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/report');
    expect(screen.queryByRole('heading', { name: 'Brightspace user mismatch' })).not.toBeInTheDocument();
  });
});

describe('Brightspace mismatch page', () => {
  it('resets the Brightspace link and returns to where the user was', async () => {
    let resets = 0;
    server.use(
      http.post(BRIGHTSPACE_AUTH_RESET_PATH, () => {
        resets += 1;
        // After the reset whoami no longer reports the mismatch.
        server.use(whoami(currentUser({ permissions: ADMIN_PERMISSIONS })));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router, user } = renderGuarded(
      currentUser({ brightspaceUserMismatch: true, permissions: ADMIN_PERMISSIONS }),
      '/report/7',
    );
    await user.click(await screen.findByRole('button', { name: 'Reset session' }));

    expect(await screen.findByText('Reports area')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/report/7');
    expect(resets).toBe(1);
  });

  it('says so when the reset fails, and stays', async () => {
    server.use(http.post(BRIGHTSPACE_AUTH_RESET_PATH, () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router, user } = renderGuarded(
      currentUser({ brightspaceUserMismatch: true, permissions: ADMIN_PERMISSIONS }),
      '/report/7',
    );
    await user.click(await screen.findByRole('button', { name: 'Reset session' }));

    expect(await screen.findByText('The session could not be reset. Please try again.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/brightspace-user-mismatch');
    error.mockRestore();
  });

  it('links the Brightspace logout in a new tab when a host is configured', async () => {
    renderApp({
      server,
      route: '/brightspace-user-mismatch',
      user: currentUser({ brightspaceUserMismatch: true, permissions: ADMIN_PERMISSIONS }),
      config: { brightspaceHost: 'https://lms.example' },
      routes: [{ path: '/brightspace-user-mismatch', element: <BrightspaceMismatchPage /> }],
    });
    const link = await screen.findByRole('link', { name: 'Log out of Brightspace (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://lms.example/d2l/logout');
  });
});

describe('Brightspace sign-in error page', () => {
  const renderError = (route: string) =>
    renderApp({ server, route, routes: [{ path: '/brightspace-auth/error', element: <BrightspaceAuthErrorPage /> }] });

  it.each([
    ['ACCESS_DENIED', 'You did not allow Brightspace to confirm who you are there.'],
    ['INVALID_STATE', 'The Brightspace sign-in has expired or was started in another browser.'],
    ['BRIGHTSPACE_FAILED', 'Brightspace could not be reached or did not confirm who you are there.'],
    ['<script>', 'Brightspace could not be reached or did not confirm who you are there.'],
  ])('explains %s and offers to try again', async (error, message) => {
    renderError(`/brightspace-auth/error?${new URLSearchParams({ error })}`);
    expect(await screen.findByRole('heading', { name: 'Brightspace sign-in failed' })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Brightspace sign-in failed - Simulation Portal');
  });
});
