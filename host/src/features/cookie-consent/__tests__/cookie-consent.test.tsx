import { screen, waitFor } from '@testing-library/react';
import type { CookiePreference } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { putCookiePreference } from '../../../testing/handlers';

const server = setupTestServer();

describe('Cookie consent', () => {
  it('stays closed when essential cookies are already allowed', async () => {
    renderApp({ server, route: '/support', cookiePreference: { allowEssentialCookies: true } });

    expect(await screen.findByRole('heading', { name: 'Support centre', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks until a choice is made: clicking outside does not close it', async () => {
    const { user } = renderApp({ server, route: '/support', cookiePreference: { allowEssentialCookies: false } });

    const dialog = await screen.findByRole('dialog', { name: 'Cookie preferences' });
    await user.click(screen.getByTestId('modal-dialog'));
    await user.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();
    expect(screen.getByText('Essential cookies')).toBeInTheDocument();
  });

  it('Allow all saves true and closes the dialog', async () => {
    const saved: CookiePreference[] = [];
    server.use(putCookiePreference((body) => saved.push(body)));
    const { user, userManager } = renderApp({ server, route: '/support', cookiePreference: { allowEssentialCookies: false } });

    await user.click(await screen.findByRole('button', { name: 'Allow all' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saved).toEqual([{ allowEssentialCookies: true }]);
    expect(userManager.signoutRedirect).not.toHaveBeenCalled();
  });

  it('Deny all saves false and then logs the user out', async () => {
    const saved: CookiePreference[] = [];
    server.use(putCookiePreference((body) => saved.push(body)));
    const { user, userManager } = renderApp({ server, route: '/support', cookiePreference: { allowEssentialCookies: false } });

    await user.click(await screen.findByRole('button', { name: 'Deny all' }));

    await waitFor(() => expect(userManager.signoutRedirect).toHaveBeenCalledTimes(1));
    expect(saved).toEqual([{ allowEssentialCookies: false }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes after a failed save and shows the error banner', async () => {
    server.use(putCookiePreference(() => undefined, 500));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderApp({ server, route: '/support', cookiePreference: { allowEssentialCookies: false } });

    await user.click(await screen.findByRole('button', { name: 'Allow all' }));

    expect(await screen.findByText('Your cookie preference could not be saved')).toBeInTheDocument();
    expect(
      screen.getByText('Please try again later. If the problem persists, please contact your administrator.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
