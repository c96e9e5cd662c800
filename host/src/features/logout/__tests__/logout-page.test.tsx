import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { RouterProvider } from '@portal/shared-ui';
import { AppProviders } from '../../../app/providers';
import { fakeUserManager } from '../../../testing/fake-user-manager';
import { currentUser, runtimeConfig } from '../../../testing/fixtures';
import { whoami } from '../../../testing/handlers';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { LogoutPage, NO_BRIGHTSPACE_MESSAGE } from '../components/logout-page';
import { logoutAndContinueState, markContinuation } from '../../../lib/logout-continuation';
import { LOGOUT_INTENT_STATE, markLogoutPending } from '../lib/logout-intent';

const server = setupTestServer();

afterEach(() => window.sessionStorage.clear());

function renderLogout({
  signedIn,
  brightspaceHost = null,
  state = null,
}: {
  signedIn: boolean;
  brightspaceHost?: string | null;
  state?: unknown;
}) {
  if (signedIn) server.use(whoami(currentUser()));
  const userManager = fakeUserManager({ signedIn });
  const assign = jest.fn();
  const router = createMemoryRouter(
    [
      { path: '/logout', element: <LogoutPage assign={assign} /> },
      { path: '/', element: <h1>Home</h1> },
      { path: '/lti/launch', element: <h1>Launch page</h1> },
    ],
    { initialEntries: [{ pathname: '/logout', state }] },
  );
  render(
    <AppProviders config={runtimeConfig({ brightspaceHost })} userManager={userManager}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { userManager, assign, router, user: userEvent.setup() };
}

describe('Logout route', () => {
  describe('sign out and continue (the LTI mismatch screen)', () => {
    const LAUNCH = '/lti/launch?launchId=abc&idp=lti';

    it('signs out at once and keeps where to continue for the return', async () => {
      const { userManager } = renderLogout({ signedIn: true, state: logoutAndContinueState(LAUNCH) });

      await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
      expect(window.sessionStorage.getItem('portal.logout-continue')).toBe(LAUNCH);
    });

    it('back from the identity provider, continues to the launch page instead of Brightspace', async () => {
      markLogoutPending();
      markContinuation(LAUNCH);
      const { assign, router } = renderLogout({ signedIn: false, brightspaceHost: 'https://lms.example' });

      expect(await screen.findByRole('heading', { name: 'Launch page' })).toBeInTheDocument();
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(LAUNCH);
      expect(assign).not.toHaveBeenCalled();
      expect(window.sessionStorage.getItem('portal.logout-continue')).toBeNull();
    });

    it('continues nowhere but an allowed page', async () => {
      const { userManager } = renderLogout({ signedIn: true, state: logoutAndContinueState('https://evil.test/lti/launch') });

      await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
      expect(window.sessionStorage.getItem('portal.logout-continue')).toBeNull();
    });

    it('drops a continuation that is not our own sign-out coming back', async () => {
      markContinuation(LAUNCH);
      const { assign, router } = renderLogout({ signedIn: false, brightspaceHost: 'https://lms.example' });

      expect(await screen.findByRole('heading', { name: 'Log out?' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/logout');
      expect(assign).not.toHaveBeenCalled();
      expect(window.sessionStorage.getItem('portal.logout-continue')).toBeNull();
    });
  });

  it("signs out at once when reached from the portal's own menu", async () => {
    const { user, userManager } = renderApp({ server, route: '/support' });

    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    await user.click((await screen.findAllByRole('link', { name: 'Log out' }))[0]!);

    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
    expect(userManager.signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'test-id-token' });
    expect(screen.queryByRole('heading', { name: 'Log out?' })).not.toBeInTheDocument();
  });

  it('asks "Log out?" when reached any other way, and signs out only when the user confirms with the keyboard', async () => {
    const { user, userManager } = renderLogout({ signedIn: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Log out?' })).toBeInTheDocument();
    expect(screen.getByText('Do you want to log out of the portal?')).toBeInTheDocument();
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();

    await user.tab();
    expect(screen.getByRole('button', { name: 'Log out' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
  });

  it('keeps the user signed in and goes home on Cancel', async () => {
    const { user, userManager, router } = renderLogout({ signedIn: true });

    await user.click(await screen.findByRole('button', { name: 'Cancel' }));

    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();
    expect(userManager.removeUser).not.toHaveBeenCalled();
  });

  it("state another site could not have set does not count as the menu's", async () => {
    const { userManager } = renderLogout({ signedIn: true, state: { logoutIntent: 'true' } });

    expect(await screen.findByRole('heading', { name: 'Log out?' })).toBeInTheDocument();
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();
  });

  it('leaves for the Brightspace logout page when our own sign-out comes back from the identity provider', async () => {
    markLogoutPending();
    const { assign, userManager } = renderLogout({ signedIn: false, brightspaceHost: 'https://lms.example' });

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://lms.example/d2l/logout'));
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();
  });

  it('asks before sending a signed-out visitor from elsewhere on to Brightspace', async () => {
    const { assign, user } = renderLogout({ signedIn: false, brightspaceHost: 'https://lms.example' });

    expect(await screen.findByRole('heading', { name: 'Log out?' })).toBeInTheDocument();
    expect(screen.getByText(/Do you also want to log out of your learning platform/)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(assign).toHaveBeenCalledWith('https://lms.example/d2l/logout');
  });

  it('a signed-out visitor from elsewhere who cancels goes home and is not sent to Brightspace', async () => {
    const { assign, user, router } = renderLogout({ signedIn: false, brightspaceHost: 'https://lms.example' });

    await user.click(await screen.findByRole('button', { name: 'Cancel' }));

    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(assign).not.toHaveBeenCalled();
  });

  it('logs that no Brightspace address is configured and goes home when signed out', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { assign, router } = renderLogout({ signedIn: false, state: LOGOUT_INTENT_STATE });

    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(error).toHaveBeenCalledWith(NO_BRIGHTSPACE_MESSAGE);
    expect(assign).not.toHaveBeenCalled();
  });
});
