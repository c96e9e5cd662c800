import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { SWRConfig } from 'swr';
import { http, HttpResponse } from 'msw';
import type { SetupServerApi } from 'msw/node';
import type { CurrentUser, LaunchSettings } from '@portal/contract';
import { AuthProvider, type UserManagerLike } from '@portal/shared-auth';
import { type InitialEntry, RouterProvider, UiProvider, useLocation } from '@portal/shared-ui';
import routes from '../routes';
import { USER_ID } from './fixtures';
import { LTI_MOUNT_PATH, MOUNT_PATH } from './mount-path';

export function currentUser(permissions: string[]): CurrentUser {
  return {
    id: USER_ID,
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

export const TEST_LAUNCH_SETTINGS: LaunchSettings = {
  simulatorUrl: 'http://simulator.test',
  launchTimeoutMs: 30_000,
  statusPollMs: 1_000,
};

export interface RenderRemoteOptions {
  server: SetupServerApi;
  /** A path, or an entry with navigation state. */
  path?: InitialEntry;
  permissions?: string[];
  launch?: Partial<LaunchSettings>;
  /** Runs effects twice, as React's StrictMode does in development. */
  strict?: boolean;
  /** Passed to userEvent, e.g. jest.advanceTimersByTime with fake timers. */
  advanceTimers?: (ms: number) => void;
}

/**
 * The remote's routes mounted where the host mounts them (/simulation and /lti/simulation), inside
 * the host's providers, with pages of other areas as stand-ins that name their path.
 */
export function renderRemote({
  server,
  path = MOUNT_PATH,
  permissions = [],
  launch,
  strict = false,
  advanceTimers,
}: RenderRemoteOptions) {
  server.use(
    http.get('/api/v1/user/whoami', () => HttpResponse.json<CurrentUser>(currentUser(permissions))),
  );
  const elsewhere = { path: '*', Component: OtherArea };
  const router = createMemoryRouter(
    [
      { path: `${MOUNT_PATH}/*`, children: routes },
      { path: `${LTI_MOUNT_PATH}/*`, children: routes },
      elsewhere,
    ],
    { initialEntries: [path] },
  );
  const tree = (
    <UiProvider productName="Simulation Portal" launch={{ ...TEST_LAUNCH_SETTINGS, ...launch }}>
      <AuthProvider
        authority="http://idp.test/realms/main"
        clientId="frontend"
        apiBaseUrl=""
        userManager={signedInUserManager()}
      >
        <SWRConfig
          value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}
        >
          <RouterProvider router={router} />
        </SWRConfig>
      </AuthProvider>
    </UiProvider>
  );
  const utils = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...utils, router, user: userEvent.setup(advanceTimers ? { advanceTimers } : {}) };
}

/** A page outside this remote (reports, downloads…): shows where the remote sent the user. */
function OtherArea() {
  const { pathname, search } = useLocation();
  return <h1>{`Other area: ${pathname}${search}`}</h1>;
}
