import { act, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const server = setupTestServer();

describe('LTI error page', () => {
  it('explains a denied permission and points to the administrator', async () => {
    renderApp({ server, route: '/lti/error?error=PERMISSION_DENIED', user: null });

    expect(await screen.findByText('You do not have permission to access this content.')).toBeInTheDocument();
    expect(screen.getByText('Please contact your administrator.')).toBeInTheDocument();
  });

  it('tells what to do when the platform is not trusted with e-mail addresses, in English and German', async () => {
    const route = '/lti/error?error=USER_NOT_LINKED&reason=email_unverified_platform';
    const { unmount } = renderApp({ server, route, user: null });
    expect(await screen.findByText(/not marked as one that verifies e-mail addresses/)).toHaveTextContent(
      'tick “Platform verifies e-mail addresses”',
    );
    unmount();

    await act(() => i18next.changeLanguage('de'));
    try {
      renderApp({ server, route, user: null });
      expect(await screen.findByText(/nicht als Plattform markiert, die E-Mail-Adressen prüft/)).toHaveTextContent(
        '„Lernplattform prüft E-Mail-Adressen“ ankreuzen',
      );
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('keeps the generic message for USER_NOT_LINKED without a reason it explains', async () => {
    renderApp({ server, route: '/lti/error?error=USER_NOT_LINKED&reason=no_email', user: null });
    expect(await screen.findByText('An error occurred while launching from your learning platform.')).toBeInTheDocument();
  });

  it('shows the generic LTI message for any other error', async () => {
    renderApp({ server, route: '/lti/error?error=SOMETHING_ELSE', user: null });

    expect(await screen.findByText('An error occurred while launching from your learning platform.')).toBeInTheDocument();
    expect(screen.getByText('Please contact your administrator.')).toBeInTheDocument();
  });
});

describe('LTI launch page', () => {
  it('shows the Go back page when launchId is missing', async () => {
    renderApp({ server, route: '/lti/launch', user: null });

    expect(await screen.findByRole('button', { name: 'Go back' })).toBeInTheDocument();
  });

  it('asks a signed-out user to log in and returns to the same path and query', async () => {
    const { user, userManager } = renderApp({ server, route: '/lti/launch?launchId=abc&productId=2', user: null });

    await user.click(await screen.findByRole('button', { name: 'Log in' }));

    expect(userManager.signinRedirect).toHaveBeenCalledWith({
      state: { returnPath: '/lti/launch?launchId=abc&productId=2' },
    });
  });

  it('hands a signed-in user to the simulation launch with the same query', async () => {
    const { router } = renderApp({ server, route: '/lti/launch?launchId=abc&productId=2' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
    expect(router.state.location.search).toBe('?launchId=abc&productId=2');
  });

  it('passes the launch parameters on untouched: the simulation remote checks them against the product', async () => {
    const query = '?launchId=abc&configuration=radiography.lower-limb.foot&protocol=vmc-radiography-vr&productId=1';
    const { router } = renderApp({ server, route: `/lti/launch${query}` });

    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
    expect(router.state.location.search).toBe(query);
  });
});

describe('pages opened from a learning platform', () => {
  it('show the remote’s page without the sidebar, in one main landmark', async () => {
    renderApp({ server, route: '/lti/simulation' });

    const heading = await screen.findByRole('heading', { level: 1, name: 'simulation remote' });
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
  });
});
