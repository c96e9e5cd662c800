import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { RequirePermission } from '../require-permission';
import { usePermissions } from '../use-permissions';
import { setupMswServer } from '../../test-utils/msw-server';
import { currentUserFixture, storeUser, testUserManager, WHOAMI_URL } from '../../test-utils/oidc';
import { renderWithAuth } from '../../test-utils/render-with-auth';

const server = setupMswServer();

async function signedInWith(permissions: string[]) {
  server.use(http.get(WHOAMI_URL, () => HttpResponse.json(currentUserFixture({ permissions }))));
  const manager = testUserManager();
  await storeUser(manager, { expiresIn: 300 });
  return manager;
}

beforeEach(() => localStorage.clear());

describe('RequirePermission', () => {
  it('renders its children when the user holds any one of the permissions', async () => {
    const manager = await signedInWith(['global.view_org_reports']);

    renderWithAuth(
      <RequirePermission
        anyOf={['global.client_access_admin_section', 'global.view_org_reports']}
        fallback={<p>Page not found</p>}
      >
        <h1>Learner reports</h1>
      </RequirePermission>,
      { manager },
    );

    expect(await screen.findByRole('heading', { name: 'Learner reports' })).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).not.toBeInTheDocument();
  });

  it('renders the fallback when the user holds none of them', async () => {
    const manager = await signedInWith(['global.view_own_reports']);

    renderWithAuth(
      <RequirePermission
        anyOf={['global.client_access_admin_section']}
        fallback={<p>Page not found</p>}
      >
        <h1>Administration</h1>
      </RequirePermission>,
      { manager },
    );

    expect(await screen.findByText('Page not found')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Administration' })).not.toBeInTheDocument();
  });

  it('renders nothing by default when the user lacks the permission', async () => {
    const manager = await signedInWith([]);

    renderWithAuth(
      <>
        <p>Sidebar</p>
        <RequirePermission anyOf={['global.client_access_admin_section']}>
          <a href="/admin/organisation">Administration</a>
        </RequirePermission>
      </>,
      { manager },
    );

    expect(await screen.findByText('Sidebar')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Administration' })).not.toBeInTheDocument();
  });
});

describe('usePermissions', () => {
  it('answers any-of questions for the signed-in user', async () => {
    const manager = await signedInWith(['global.view_user', 'global.create_user']);
    function Probe() {
      const can = usePermissions();
      return (
        <ul>
          <li>users: {String(can(['global.remove_user', 'global.view_user']))}</li>
          <li>licences: {String(can(['global.view_license_block']))}</li>
          <li>nothing asked: {String(can([]))}</li>
        </ul>
      );
    }

    renderWithAuth(<Probe />, { manager });

    expect(await screen.findByText('users: true')).toBeInTheDocument();
    expect(screen.getByText('licences: false')).toBeInTheDocument();
    expect(screen.getByText('nothing asked: true')).toBeInTheDocument();
  });
});
