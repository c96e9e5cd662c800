// `@portal/shared-ui/testing`: the one harness of every remote's tests (and the host's MSW set-up).
// Tests only; no bundle imports it. It imports shared-ui by its package name so a test and the
// harness share one module instance of the router and i18n facades.
import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { setupServer, type SetupServerApi } from 'msw/node';
import type { Resource } from 'i18next';
import type { CurrentUser, LaunchSettings } from '@portal/contract';
import { mountPaths, type RemoteManifest } from '@portal/contract/remotes';
import {
  initI18n,
  RouterProvider,
  UiProvider,
  useLocation,
  type InitialEntry,
  type RouteObject,
} from '@portal/shared-ui';
import { createMemoryRouter } from '@portal/shared-ui/router-testing';
import sharedDe from '@portal/shared-ui/locales/de.json';
import sharedEn from '@portal/shared-ui/locales/en.json';

/**
 * One MSW server per test file; a request without a handler fails the test. i18next starts in
 * English with shared-ui's texts, or with `resources` when given (the host's merged files).
 */
export function setupTestServer({ resources }: { resources?: Resource } = {}) {
  const server = setupServer();
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    await initI18n({ lng: 'en', resources: resources ?? { en: { translation: sharedEn } } });
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

const SHARED_STRINGS: Record<string, object> = { en: sharedEn, de: sharedDe };

/**
 * A remote's test server: `setupTestServer` with shared-ui's strings and the remote's own, under
 * its manifest namespace, bundled in every language of `locales` (the page loads them over HTTP
 * from the remote's origin), e.g. `setupRemoteTestServer(REMOTES.reports, { en, de })`.
 */
export function setupRemoteTestServer(remote: Pick<RemoteManifest, 'namespace'>, locales: Record<string, object>) {
  const resources: Resource = Object.fromEntries(
    Object.entries(locales).map(([lng, strings]) => [
      lng,
      { translation: SHARED_STRINGS[lng] ?? {}, [remote.namespace]: strings } as Resource[string],
    ]),
  );
  return setupTestServer({ resources });
}

/**
 * The signed-in side of the harness: `@portal/shared-auth/testing` satisfies it. Passed in because
 * shared-ui does not depend on shared-auth (shared-auth is the lower layer of the two singletons).
 */
export interface HarnessAuth {
  currentUser(overrides?: Partial<CurrentUser>): CurrentUser;
  whoami(user: CurrentUser): RequestHandler;
  SignedInProviders: ComponentType<{ children: ReactNode }>;
}

export const TEST_LAUNCH_SETTINGS: LaunchSettings = {
  simulatorUrl: 'http://simulator.test',
  launchTimeoutMs: 30_000,
  statusPollMs: 1_000,
};

export interface RemoteHarnessOptions {
  /** The remote's exposed `./routes`. */
  routes: RouteObject[];
  /** Its entry in the remote manifest: the routes are mounted wherever the host mounts them. */
  remote: RemoteManifest;
  auth: HarnessAuth;
}

export interface RenderRemoteOptions {
  server: SetupServerApi;
  /** A path, or an entry with navigation state; the first mount path by default. */
  path?: InitialEntry;
  /** The signed-in user's permissions (none by default). */
  permissions?: string[];
  /** Other fields of the signed-in user. */
  account?: Partial<CurrentUser>;
  /** Mounts the routes here too, beside the manifest's mounts. */
  mountPath?: string;
  launch?: Partial<LaunchSettings>;
  /** Runs effects twice, as React's StrictMode does in development. */
  strict?: boolean;
  /** Passed to userEvent, e.g. jest.advanceTimersByTime with fake timers. */
  advanceTimers?: (ms: number) => void;
}

/** A page outside the remote (reports, downloads…): shows where the remote sent the user. */
function OtherArea() {
  const { pathname, search } = useLocation();
  return <h1>{`Other area: ${pathname}${search}`}</h1>;
}

/**
 * `renderRemote` for one remote: its routes mounted where the host mounts them, inside the host's
 * providers (UiProvider, auth signed in through a fake identity provider, PortalSWRConfig with a
 * fresh cache), whoami answered by MSW, and pages of other areas as stand-ins that name their path.
 */
export function createRemoteHarness({ routes, remote, auth }: RemoteHarnessOptions) {
  const { SignedInProviders } = auth;
  const remoteMounts = mountPaths(remote);
  const defaultPath = remote.mount;
  function renderRemote({
    server,
    path = defaultPath,
    permissions = [],
    account,
    mountPath,
    launch,
    strict = false,
    advanceTimers,
  }: RenderRemoteOptions) {
    server.use(auth.whoami(auth.currentUser({ ...account, permissions })));
    const mounts = [...new Set([...(mountPath ? [mountPath] : []), ...remoteMounts])];
    const router = createMemoryRouter(
      [...mounts.map((mount) => ({ path: `${mount}/*`, children: routes })), { path: '*', Component: OtherArea }],
      { initialEntries: [path] },
    );
    const tree = (
      <UiProvider productName="Simulation Portal" launch={{ ...TEST_LAUNCH_SETTINGS, ...launch }}>
        <SignedInProviders>
          <RouterProvider router={router} />
        </SignedInProviders>
      </UiProvider>
    );
    const view = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
    return { ...view, router, user: userEvent.setup(advanceTimers ? { advanceTimers } : {}) };
  }
  return { renderRemote, currentUser: auth.currentUser };
}
