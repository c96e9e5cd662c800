import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { RouterProvider, useLocation } from '@portal/shared-ui';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { standaloneRoutes, type StandaloneAuth } from '@portal/shared-ui/standalone';

// A remote alone on its dev server mounts its routes where its manifest entry says the host does.
const auth: StandaloneAuth = {
  AUTH_CALLBACK_PATH: '/auth/callback',
  AuthProvider: ({ children }: { children: ReactNode }) => <>{children}</>,
  LoginGate: ({ children }: { children: ReactNode }) => <>{children}</>,
  PortalSWRConfig: ({ children }: { children: ReactNode }) => <>{children}</>,
};
function Where() {
  return <p>{`remote at ${useLocation().pathname}`}</p>;
}
const remote = { mount: '/area', ltiMount: '/lti/area', devPort: 8099, namespace: 'area' };
const routes = standaloneRoutes({ auth, routes: [{ path: '*', element: <Where /> }], remote });

const open = (path: string) =>
  render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />);

describe('standaloneRoutes', () => {
  it("sends '/' to the remote's layout mount", async () => {
    open('/');
    expect(await screen.findByText('remote at /area')).toBeInTheDocument();
  });

  it('mounts the routes at the LTI mount too, and nowhere else', async () => {
    open('/lti/area/1');
    expect(await screen.findByText('remote at /lti/area/1')).toBeInTheDocument();
    open('/elsewhere');
    expect(screen.queryByText(/remote at \/elsewhere/)).not.toBeInTheDocument();
  });
});
