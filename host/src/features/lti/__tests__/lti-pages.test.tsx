import { act, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { currentUser } from '../../../testing/fixtures';
import { launchOwner } from '../../../testing/handlers';
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

  describe('signing in by the launch (kc_idp_hint)', () => {
    afterEach(() => sessionStorage.clear());

    it('starts the brokered sign-in at once, with the launch as login_hint, without a Log in button', async () => {
      const route = '/lti/launch?launchId=abc&productId=2&idp=lti';
      const { userManager } = renderApp({ server, route, user: null });

      await waitFor(() =>
        expect(userManager.signinRedirect).toHaveBeenCalledWith({
          state: { returnPath: route },
          extraQueryParams: { kc_idp_hint: 'lti' },
          login_hint: 'abc',
        }),
      );
      expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
      expect(screen.getByText('Signing you in through your learning platform…')).toBeInTheDocument();
    });

    it('back still signed out, says it did not work and offers the password sign-in (en, de)', async () => {
      sessionStorage.setItem('lti-launch-sign-in:abc', '1');
      const route = '/lti/launch?launchId=abc&idp=lti';
      const { user, userManager, unmount } = renderApp({ server, route, user: null });

      expect(await screen.findByRole('alert')).toHaveTextContent('Signing you in through your learning platform did not work.');
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      expect(userManager.signinRedirect).toHaveBeenCalledTimes(1);
      expect(userManager.signinRedirect).toHaveBeenCalledWith({ state: { returnPath: route } });
      unmount();

      await act(() => i18next.changeLanguage('de'));
      try {
        renderApp({ server, route, user: null });
        expect(await screen.findByRole('alert')).toHaveTextContent('Die Anmeldung über Ihre Lernplattform hat nicht funktioniert.');
      } finally {
        await act(() => i18next.changeLanguage('en'));
      }
    });

    it('takes only an alias as the hint; anything else asks to log in', async () => {
      const { userManager } = renderApp({ server, route: '/lti/launch?launchId=abc&idp=https%3A%2F%2Fevil.test', user: null });

      expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
      expect(userManager.signinRedirect).not.toHaveBeenCalled();
    });
  });

  it('hands a signed-in user to the simulation launch with the same query', async () => {
    server.use(launchOwner({ mine: true, launchedAs: { name: 'Lena Learner' } }));
    const { router } = renderApp({ server, route: '/lti/launch?launchId=abc&productId=2' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
    expect(router.state.location.search).toBe('?launchId=abc&productId=2');
  });

  it('passes the launch parameters on untouched: the simulation remote checks them against the product', async () => {
    const query = '?launchId=abc&configuration=radiography.lower-limb.foot&protocol=vmc-radiography-vr&productId=1';
    server.use(launchOwner({ mine: true, launchedAs: { name: 'Lena Learner' } }));
    const { router } = renderApp({ server, route: `/lti/launch${query}` });

    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
    expect(router.state.location.search).toBe(query);
  });
});

describe('LTI launch page: launched by someone else than the signed-in user', () => {
  const route = '/lti/launch?launchId=abc&productId=2&idp=lti';
  afterEach(() => sessionStorage.clear());

  it('shows the mismatch screen instead of continuing as the signed-in user; axe-clean', async () => {
    server.use(launchOwner({ mine: false, launchedAs: {} }));
    const { router, container } = renderApp({ server, route });

    expect(await screen.findByRole('heading', { level: 1, name: 'Launched as someone else' })).toBeInTheDocument();
    expect(screen.getByText(/signed in to the portal as Lena Learner/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/lti/launch');
    expect(await axe(container)).toHaveNoViolations();
  });

  it('"Sign out and continue" by keyboard signs out with this launch page as where to go on', async () => {
    server.use(launchOwner({ mine: false, launchedAs: {} }));
    // An earlier brokered try that came back as the identity provider's other user.
    sessionStorage.setItem('lti-launch-sign-in:abc', '1');
    const { user, userManager, router } = renderApp({ server, route });

    await screen.findByRole('button', { name: 'Sign out and continue' });
    await user.tab();
    expect(screen.getByRole('button', { name: 'Sign out and continue' })).toHaveFocus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
    expect(router.state.location.pathname).toBe('/logout');
    expect(sessionStorage.getItem('portal.logout-continue')).toBe(route);
    expect(sessionStorage.getItem('lti-launch-sign-in:abc')).toBeNull();
  });

  it('is complete in German', async () => {
    server.use(launchOwner({ mine: false, launchedAs: {} }));
    await act(() => i18next.changeLanguage('de'));
    try {
      renderApp({ server, route, user: currentUser({ language: 'de' }) });
      expect(await screen.findByRole('heading', { name: 'Von einer anderen Person gestartet' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Abmelden und fortfahren' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Zurück' })).toBeInTheDocument();
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('when the check fails, goes on neither as the signed-in user nor silently', async () => {
    server.use(launchOwner({ status: 500 }));
    const { router } = renderApp({ server, route });

    expect(await screen.findByText(/could not check who launched this activity/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/lti/launch');
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
