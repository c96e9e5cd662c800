import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { RouterProvider } from '@portal/shared-ui';
import { AppProviders } from '../../../app/providers';
import { fakeUserManager } from '../../../testing/fake-user-manager';
import { runtimeConfig } from '../../../testing/fixtures';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { LogoutPage, NO_BRIGHTSPACE_MESSAGE } from '../components/logout-page';

const server = setupTestServer();

function renderLogout({ signedIn, brightspaceHost }: { signedIn: boolean; brightspaceHost: string | null }) {
  const userManager = fakeUserManager({ signedIn });
  const assign = jest.fn();
  const router = createMemoryRouter(
    [
      { path: '/logout', element: <LogoutPage assign={assign} /> },
      { path: '/', element: <h1>Home</h1> },
    ],
    { initialEntries: ['/logout'] },
  );
  render(
    <AppProviders config={runtimeConfig({ brightspaceHost })} userManager={userManager}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { userManager, assign, router };
}

describe('Logout route', () => {
  it('signs an authenticated user out at the identity provider', async () => {
    const { userManager } = renderApp({ server, route: '/logout' });

    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
    expect(userManager.signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'test-id-token' });
  });

  it('sends a signed-out user to the Brightspace logout page when Brightspace is linked', async () => {
    const { assign, userManager } = renderLogout({ signedIn: false, brightspaceHost: 'https://lms.example' });

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://lms.example/d2l/logout'));
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();
  });

  it('logs that no Brightspace address is configured and goes home otherwise', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { assign, router } = renderLogout({ signedIn: false, brightspaceHost: null });

    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(error).toHaveBeenCalledWith(NO_BRIGHTSPACE_MESSAGE);
    expect(assign).not.toHaveBeenCalled();
  });
});
