import { screen } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { ADMIN_PERMISSIONS, currentUser } from '../../../testing/fixtures';

const server = setupTestServer();

describe('Page not found', () => {
  it('is shown for an unknown path, with a link home', async () => {
    renderApp({ server, route: '/no/such/page' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText("Sorry, we couldn't find the page you're looking for.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/');
  });

  it('is what users without the admin-section permission get for /admin', async () => {
    const load = jest.fn(async () => [{ index: true, element: <h1>Organisations</h1> }]);
    renderApp({ server, route: '/admin/organisation', loadRemote: load });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it('lets administrators into /admin', async () => {
    const load = jest.fn(async () => [{ path: 'organisation', element: <h1>Organisations</h1> }]);
    renderApp({ server, route: '/admin/organisation', loadRemote: load, user: currentUser({ permissions: ADMIN_PERMISSIONS }) });

    expect(await screen.findByRole('heading', { name: 'Organisations' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('admin', 0);
  });
});
