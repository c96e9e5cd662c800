import { screen, waitFor, within } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import {
  ALL_ADMIN_PERMISSIONS,
  licence,
  organisation,
  paged,
  serveLicence,
  serveLookups,
  serveOrganisation,
  servePaged,
} from '../../../testing/admin-api';

const server = setupTestServer();

beforeEach(() => {
  serveLookups(server);
  serveOrganisation(server, organisation());
  servePaged(server, '/api/v1/organisation/1/license-block', () => paged([licence()]));
  servePaged(server, '/api/v1/organisation/1/license-block/7/user', () => paged([]));
  servePaged(server, '/api/v1/organisation/1/user', () => paged([]));
});

const crumbs = () => within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
const tabs = () => within(screen.getByRole('navigation', { name: 'Organisation sections' }));

describe('organisation layout', () => {
  it('shows the name, breadcrumbs from Administration and the details, licences and users tabs', async () => {
    renderRemote({ server, path: '/admin/organisation/1', permissions: ALL_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('heading', { name: 'Demo Hospital', level: 1 })).toBeInTheDocument();
    expect(crumbs().getByRole('link', { name: 'Administration' })).toHaveAttribute('href', '/admin/organisation');
    expect(crumbs().getByRole('link', { name: 'Organisations' })).toHaveAttribute('href', '/admin/organisation');
    expect(crumbs().getByText('Demo Hospital')).toHaveAttribute('aria-current', 'page');
    expect(tabs().getByRole('link', { name: 'Organisation details' })).toHaveAttribute('aria-current', 'page');
    expect(tabs().getByRole('link', { name: 'Licences' })).toHaveAttribute('href', '/admin/organisation/1/license');
    expect(tabs().getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin/organisation/1/user');
  });

  it('moves between tabs, and the page below adds its own crumbs', async () => {
    serveLicence(server, licence());
    const { user } = renderRemote({ server, path: '/admin/organisation/1', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('link', { name: 'Licences' }));
    expect(await screen.findByRole('heading', { name: 'Licences', level: 2 })).toBeInTheDocument();
    expect(tabs().getByRole('link', { name: 'Licences' })).toHaveAttribute('aria-current', 'page');
    expect(crumbs().getByRole('link', { name: 'Demo Hospital' })).toHaveAttribute('href', '/admin/organisation/1');
    expect(crumbs().getByText('Licences')).toHaveAttribute('aria-current', 'page');

    await user.click(await screen.findByRole('link', { name: 'Edit Radiography 2026' }));
    expect(await screen.findByRole('heading', { name: 'Radiography 2026', level: 2 })).toBeInTheDocument();
    expect(crumbs().getByRole('link', { name: 'Licences' })).toHaveAttribute('href', '/admin/organisation/1/license');
    expect(crumbs().getByText('Radiography 2026')).toHaveAttribute('aria-current', 'page');
    expect(document.title).toMatch(/^Radiography 2026/);

    await user.click(tabs().getByRole('link', { name: 'Users' }));
    expect(await screen.findByRole('heading', { name: 'Users', level: 2 })).toBeInTheDocument();
    expect(crumbs().getByText('Users')).toHaveAttribute('aria-current', 'page');
  });

  it('hides the tabs and crumbs the user has no permission for', async () => {
    renderRemote({
      server,
      path: '/admin/organisation/1',
      permissions: ['global.client_access_admin_section', 'global.view_org', 'global.view_user'],
    });

    expect(await screen.findByRole('heading', { name: 'Demo Hospital', level: 1 })).toBeInTheDocument();
    expect(tabs().queryByRole('link', { name: 'Licences' })).not.toBeInTheDocument();
    expect(tabs().getByRole('link', { name: 'Users' })).toBeInTheDocument();
  });

  it('is page not found for an organisation the API does not show', async () => {
    const asked: string[] = [];
    server.events.on('response:mocked', ({ request, response }) => {
      if (request.url.endsWith('/api/v1/organisation/2')) asked.push(String(response.status));
    });
    renderRemote({ server, path: '/admin/organisation/2', permissions: ALL_ADMIN_PERMISSIONS });

    // The page-not-found must be the answer to the 404, not what shows before the user is known.
    await waitFor(() => expect(asked).toEqual(['404']));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: 'Demo Hospital' })).not.toBeInTheDocument();
    server.events.removeAllListeners();
  });
});
