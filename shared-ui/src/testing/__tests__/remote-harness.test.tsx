import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { CurrentUser } from '@portal/contract';
import { Link, useNavigate, useProduct, useTranslation, type RouteObject } from '@portal/shared-ui';
import { createRemoteHarness, setupTestServer, TEST_LAUNCH_SETTINGS, type HarnessAuth } from '..';

const server = setupTestServer();

// Stands in for @portal/shared-auth/testing (shared-ui cannot depend on shared-auth): signs in by
// asking whoami, as the real AuthProvider does.
const User = createContext<CurrentUser | null>(null);
const auth: HarnessAuth = {
  currentUser: (overrides = {}) => ({
    id: 'u1',
    email: 'lena@demo.test',
    firstName: 'Lena',
    lastName: 'Learner',
    language: 'en',
    roleName: 'learner',
    organisationId: 1,
    organisationName: 'Demo Hospital',
    isBrightspaceAuthRequired: false,
    brightspaceUserMismatch: false,
    permissions: [],
    ...overrides,
  }),
  whoami: (user) => http.get('/api/v1/user/whoami', () => HttpResponse.json(user)),
  SignedInProviders: function SignedIn({ children }: { children: ReactNode }) {
    const [user, setUser] = useState<CurrentUser | null>(null);
    useEffect(() => {
      void fetch('/api/v1/user/whoami').then(async (r) => setUser((await r.json()) as CurrentUser));
    }, []);
    return user ? <User.Provider value={user}>{children}</User.Provider> : <p>Signing in</p>;
  },
};

function Home() {
  const user = useContext(User);
  const { t } = useTranslation();
  const { launch } = useProduct();
  const navigate = useNavigate();
  return (
    <>
      <h1>{`${user?.firstName} (${user?.permissions.join(',')}) ${t('common.cancel')}`}</h1>
      <p>{`simulator ${launch.simulatorUrl}`}</p>
      <Link to="detail">Detail</Link>
      <button onClick={() => navigate('/downloads?x=1')}>Elsewhere</button>
    </>
  );
}
const routes: RouteObject[] = [
  { index: true, element: <Home /> },
  { path: 'detail', element: <h1>Detail page</h1> },
];

// A remote manifest entry of a made-up remote, mounted as the reports remote is: twice.
const remote = { mount: '/area', ltiMount: '/lti/area', devPort: 8099, namespace: 'area' };
const { renderRemote, currentUser } = createRemoteHarness({ routes, remote, auth });

describe('remote harness', () => {
  it('mounts the routes at the layout mount path, signed in with the permissions asked for, in English', async () => {
    renderRemote({ server, permissions: ['global.view_org'] });
    expect(await screen.findByRole('heading', { name: 'Lena (global.view_org) Cancel' })).toBeInTheDocument();
    expect(screen.getByText(`simulator ${TEST_LAUNCH_SETTINGS.simulatorUrl}`)).toBeInTheDocument();
  });

  it('mounts them at the LTI mount path too and at an extra one, and follows links inside', async () => {
    const { user, router } = renderRemote({ server, path: '/lti/area' });
    await user.click(await screen.findByRole('link', { name: 'Detail' }));
    expect(await screen.findByRole('heading', { name: 'Detail page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/lti/area/detail');

    renderRemote({ server, path: '/embedded/detail', mountPath: '/embedded' });
    await waitFor(() => expect(screen.getAllByRole('heading', { name: 'Detail page' })).toHaveLength(2));
  });

  it('shows where the remote sent the user when it leaves its area', async () => {
    const { user } = renderRemote({ server, launch: { simulatorUrl: null } });
    expect(await screen.findByText('simulator null')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Other area: /downloads?x=1' })).toBeInTheDocument();
  });

  it('answers whoami with the account asked for', async () => {
    renderRemote({ server, account: { firstName: 'Ada' } });
    expect(await screen.findByRole('heading', { name: 'Ada () Cancel' })).toBeInTheDocument();
    expect(currentUser({ firstName: 'Ada' }).firstName).toBe('Ada');
  });

  it('fails a test whose screen calls the API without a handler', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(fetch('/api/v1/unknown')).rejects.toThrow();
    errors.mockRestore();
  });
});
