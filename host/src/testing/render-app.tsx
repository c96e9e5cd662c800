import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import { type RouteObject, RouterProvider } from '@portal/shared-ui';
import type { SetupServerApi } from 'msw/node';
import type { CookiePreference, CurrentUser, RuntimeConfig, UserNotification } from '@portal/contract';
import { AppProviders } from '../app/providers';
import { createAppRoutes } from '../app/router';
import type { LoadRemoteRoutes } from '../federation/remote-area';
import { fakeUserManager } from './fake-user-manager';
import { currentUser, runtimeConfig } from './fixtures';
import { getCookiePreference, myNotifications, whoami } from './handlers';

export interface RenderAppOptions {
  server: SetupServerApi;
  route?: string;
  /** null = signed out. */
  user?: CurrentUser | null;
  cookiePreference?: CookiePreference;
  /** The sidebar's notifications (none unless given). */
  notifications?: UserNotification[];
  config?: Partial<RuntimeConfig>;
  loadRemote?: LoadRemoteRoutes;
  routes?: RouteObject[];
}

const remoteStub: LoadRemoteRoutes = async (name) => [{ index: true, element: <h1>{`${name} remote`}</h1> }];

/** The whole host app in a memory router, with providers, talking to MSW. */
export function renderApp({
  server,
  route = '/',
  user = currentUser(),
  cookiePreference = { allowEssentialCookies: true },
  notifications = [],
  config,
  loadRemote = remoteStub,
  routes,
}: RenderAppOptions) {
  if (user) server.use(whoami(user), getCookiePreference(cookiePreference), myNotifications(notifications));
  const userManager = fakeUserManager({ signedIn: Boolean(user) });
  const router = createMemoryRouter(routes ?? createAppRoutes({ loadRemote }), { initialEntries: [route] });
  const utils = render(
    <AppProviders
      config={runtimeConfig(config)}
      userManager={userManager}
      swrValue={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}
    >
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, userManager, user: userEvent.setup() };
}
