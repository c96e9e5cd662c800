import { screen, within } from '@testing-library/react';
import { setupTestServer } from '../testing/msw-server';
import { renderRemote } from '../testing/render-remote';
import { organisation, paged, servePaged } from '../testing/admin-api';

const server = setupTestServer();
beforeEach(() => {
  servePaged(server, '/api/v1/organisation', () => paged([organisation()]));
});
const ADMIN = ['global.client_access_admin_section', 'global.view_org'];

describe('admin routes', () => {
  it('show Organisations under the Administration breadcrumb root, with the section tabs', async () => {
    renderRemote({ server, path: '/admin/organisation', permissions: [...ADMIN, 'global.manage_sim_config'] });

    expect(await screen.findByRole('heading', { name: 'Organisations', level: 1 })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Administration' })).toHaveAttribute('href', '/admin/organisation');
    const tabs = screen.getByRole('navigation', { name: 'Administration sections' });
    expect(within(tabs).getByRole('link', { name: 'Organisations' })).toHaveClass('active');
    expect(within(tabs).getByRole('link', { name: 'Product configurations' })).toHaveAttribute('href', '/admin/product');
  });

  it('send /admin to the organisations list', async () => {
    renderRemote({ server, path: '/admin', permissions: ADMIN });

    expect(await screen.findByRole('heading', { name: 'Organisations', level: 1 })).toBeInTheDocument();
  });

  it('answer page not found without the admin-section permission', async () => {
    renderRemote({ server, path: '/admin/organisation', permissions: ['global.view_org'] });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Organisations' })).not.toBeInTheDocument();
  });
});
