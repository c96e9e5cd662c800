import { act, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { ADMIN_PERMISSIONS, currentUser, USER_ID } from '../../../testing/fixtures';

const server = setupTestServer();

// jsdom has no viewport width, so the sidebar is the small-screen slide-over: open it first.
async function openSidebar(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: /^(Menu|Menü)$/ }));
}

describe('Layout', () => {
  it('welcomes the user by first and last name and links the main areas', async () => {
    const { user } = renderApp({ server, route: '/support' });
    await openSidebar(user);

    expect(await screen.findByText('Welcome, Lena Learner')).toBeInTheDocument();
    const main = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(main).getByRole('link', { name: 'Simulations' })).toHaveAttribute('href', '/simulation');
    expect(within(main).getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/report');
    expect(within(main).getByRole('link', { name: 'Downloads' })).toHaveAttribute('href', `/user/${USER_ID}/downloads`);
    expect(screen.getByText('1.6.177-test')).toBeInTheDocument();
    expect(document.title).toBe('Support centre - Simulation Portal');
  });

  it('hides the administration link from users without the admin-section permission', async () => {
    const { user } = renderApp({ server, route: '/support' });
    await openSidebar(user);

    const account = await screen.findByRole('navigation', { name: 'Account navigation' });
    expect(within(account).queryByRole('link', { name: 'Administration' })).not.toBeInTheDocument();
    expect(within(account).getByRole('link', { name: 'Device login (opens in a new tab)' })).toHaveAttribute(
      'href',
      'http://idp.test/realms/main/device?kc_locale=en',
    );
  });

  it('shows the administration link to users with the admin-section permission', async () => {
    const { user } = renderApp({ server, route: '/support', user: currentUser({ permissions: ADMIN_PERMISSIONS }) });
    await openSidebar(user);

    const account = await screen.findByRole('navigation', { name: 'Account navigation' });
    expect(within(account).getByRole('link', { name: 'Administration' })).toHaveAttribute('href', '/admin/organisation');
  });

  it('says Brightspace is not linked when no learning platform is configured, and links it when it is', async () => {
    const { unmount } = renderApp({ server, route: '/support' });
    expect(await screen.findAllByText('Brightspace is not linked to this environment')).not.toHaveLength(0);
    unmount();

    const { user } = renderApp({ server, route: '/support', config: { brightspaceHost: 'https://lms.example' } });
    await openSidebar(user);
    const link = await screen.findByRole('link', { name: 'Open Brightspace (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://lms.example/d2l/home');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('redirects / to the simulation area', async () => {
    const { router } = renderApp({ server, route: '/' });

    expect(await screen.findByRole('heading', { name: 'simulation remote' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/simulation');
  });

  it('opens the small-screen menu, moves focus into it and closes it with Escape', async () => {
    const { user } = renderApp({ server, route: '/support' });

    const menu = await screen.findByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
  });

  it('offers a skip link as the first Tab stop that moves focus to the main content', async () => {
    const { user } = renderApp({ server, route: '/support' });
    await screen.findByRole('heading', { level: 1 });

    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('moves focus to the new page heading and announces its title after navigation', async () => {
    const { user, router } = renderApp({ server, route: '/support' });
    await screen.findByRole('heading', { level: 1 });
    const announcer = screen.getByTestId('route-announcer');
    // The first page is announced by the browser itself.
    expect(announcer).toBeEmptyDOMElement();

    await openSidebar(user);
    await user.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Downloads' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Downloads' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(router.state.location.pathname).toMatch(/downloads/);
    expect(announcer).toHaveTextContent('Downloads - Simulation Portal');
  });

  it('moves focus to the heading of another remote’s page, not the one it replaces', async () => {
    const { user } = renderApp({ server, route: '/simulation' });
    await screen.findByRole('heading', { level: 1, name: 'simulation remote' });

    await openSidebar(user);
    await user.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Reports' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'reports remote' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.queryByRole('heading', { name: 'simulation remote' })).not.toBeInTheDocument();
  });

  it('keeps the version label in a footer landmark', async () => {
    renderApp({ server, route: '/support' });
    const footer = await screen.findByRole('contentinfo');
    expect(footer).toHaveTextContent('Version 1.6.177-test');
  });

  describe('Change password', () => {
    afterEach(async () => {
      jest.restoreAllMocks();
      await act(() => i18next.changeLanguage('en'));
    });

    it('asks the identity provider for Keycloak\'s UPDATE_PASSWORD action, returning to this page', async () => {
      const { user, userManager } = renderApp({ server, route: '/support?topic=faq#contact' });
      await openSidebar(user);
      const account = await screen.findByRole('navigation', { name: 'Account navigation' });
      const button = within(account).getByRole('button', { name: 'Change password' });

      // By keyboard: focus it and press Enter.
      button.focus();
      await user.keyboard('{Enter}');

      expect(userManager.signinRedirect).toHaveBeenCalledTimes(1);
      expect(userManager.signinRedirect).toHaveBeenCalledWith({
        state: { returnPath: '/support?topic=faq#contact' },
        extraQueryParams: { kc_action: 'UPDATE_PASSWORD' },
        ui_locales: 'en',
      });
    });

    it('asks in the user\'s language, and says so when the identity provider cannot be reached', async () => {
      const { user, userManager } = renderApp({ server, route: '/support', user: currentUser({ language: 'de' }) });
      userManager.signinRedirect.mockRejectedValueOnce(new Error('Failed to fetch'));
      jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      await openSidebar(user);
      const account = await screen.findByRole('navigation', { name: 'Kontonavigation' });
      await user.click(within(account).getByRole('button', { name: 'Passwort ändern' }));

      expect(userManager.signinRedirect).toHaveBeenCalledWith(expect.objectContaining({ ui_locales: 'de' }));
      expect(await within(account).findByRole('alert')).toHaveTextContent(
        'Die Passwortänderung konnte nicht geöffnet werden. Versuchen Sie es erneut.',
      );
    });
  });
});
