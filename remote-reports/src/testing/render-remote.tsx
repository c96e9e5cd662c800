import { render } from '@testing-library/react';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { http, HttpResponse } from 'msw';
import type { SetupServerApi } from 'msw/node';
import type { CurrentUser } from '@portal/contract';
import { AuthProvider, PortalSWRConfig, type UserManagerLike } from '@portal/shared-auth';
import { RouterProvider, UiProvider } from '@portal/shared-ui';
import routes from '../routes';
import { MOUNT_PATH } from './mount-path';

export function currentUser(permissions: string[]): CurrentUser {
  return {
    id: '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0001',
    email: 'learner@demo.test',
    firstName: 'Lena',
    lastName: 'Learner',
    language: 'en',
    roleName: 'learner',
    organisationId: 1,
    organisationName: 'Demo Hospital',
    isBrightspaceAuthRequired: false,
    brightspaceUserMismatch: false,
    permissions,
  };
}

/** A signed-in session without the identity provider's redirects (those are e2e's job). */
function signedInUserManager(): UserManagerLike {
  const stored = {
    access_token: 'test-access-token',
    token_type: 'Bearer',
    expires_in: 3600,
    expired: false,
    profile: { sub: 'test-sub' },
  };
  return {
    getUser: async () => stored,
    signinSilent: async () => null,
    signinRedirect: async () => undefined,
    signinRedirectCallback: async () => {
      throw new Error('no callback in tests');
    },
    signoutRedirect: async () => undefined,
    removeUser: async () => undefined,
    clearStaleState: async () => undefined,
  } as unknown as UserManagerLike;
}

// Each render gets its own cache, so one test's answers never leak into the next; failed loads
// are not retried, so an error shows at once.
const TEST_SWR = { provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 };

/** The remote's routes mounted where the host mounts them, inside the host's providers. */
export function renderRemote({
  server,
  path = MOUNT_PATH,
  permissions = [] as string[],
  mountPath = MOUNT_PATH,
}: {
  server: SetupServerApi;
  path?: string;
  permissions?: string[];
  /** Where the host mounted the remote: /report, or /lti/report inside an LTI launch. */
  mountPath?: string;
}) {
  server.use(http.get('/api/v1/user/whoami', () => HttpResponse.json<CurrentUser>(currentUser(permissions))));
  const router = createMemoryRouter([{ path: `${mountPath}/*`, children: routes }], { initialEntries: [path] });
  const view = render(
    <UiProvider productName="Simulation Portal">
      <AuthProvider authority="http://idp.test/realms/main" clientId="frontend" apiBaseUrl="" userManager={signedInUserManager()}>
        <PortalSWRConfig value={TEST_SWR}>
          <RouterProvider router={router} />
        </PortalSWRConfig>
      </AuthProvider>
    </UiProvider>,
  );
  return { ...view, router };
}
