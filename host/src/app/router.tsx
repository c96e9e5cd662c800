import { LoginGate, RequirePermission } from '@portal/shared-auth';
import { createBrowserRouter, Navigate, Outlet, PageSpinner, type RouteObject } from '@portal/shared-ui';
import { RemoteArea, type LoadRemoteRoutes } from '../federation/remote-area';
import type { RemoteName } from '../federation/remotes';
import { Layout } from './layout/components/layout';
import { LtiFrame } from '../features/lti/components/lti-frame';
import { RouteErrorView } from '../features/errors/components/route-error-view';
import { PageNotFoundPage } from '../components/page-not-found-page';
import { OrganisationDeactivatedGate } from '../features/organisation-deactivated/components/organisation-deactivated-gate';
import { paths } from '../config/paths';

// Screens off the first one are fetched when first visited, keeping the first load small.
const lazyPage = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) => async () => ({
  Component: (await load())[name],
});

export interface AppRoutesOptions {
  /** Tests hand in a fake; the app loads remotes through the federation runtime. */
  loadRemote?: LoadRemoteRoutes;
}

export function createAppRoutes({ loadRemote }: AppRoutesOptions = {}): RouteObject[] {
  // Keyed by remote: going from one remote's page to another's must not render the old remote's
  // page for one more commit, where the route announcer would take its heading for the new one.
  const remote = (name: RemoteName) =>
    loadRemote ? <RemoteArea key={name} name={name} load={loadRemote} /> : <RemoteArea key={name} name={name} />;

  const ltiError = <RouteErrorView ltiHome={paths.ltiLaunch.getHref()} />;

  return [
    {
      errorElement: <RouteErrorView />,
      hydrateFallbackElement: <PageSpinner />,
      children: [
        // AuthProvider redeems the code on this path and moves on to the return path.
        { path: paths.authCallback.path, element: <PageSpinner /> },
        { path: paths.ltiAuthCallback.path, errorElement: ltiError, element: <PageSpinner /> },
        {
          path: paths.ltiLaunch.path,
          errorElement: ltiError,
          lazy: lazyPage(() => import('../features/lti/components/lti-launch-page'), 'LtiLaunchPage'),
        },
        {
          path: paths.ltiDeepLink.path,
          errorElement: ltiError,
          lazy: lazyPage(() => import('../features/lti/components/lti-deep-link-page'), 'LtiDeepLinkPage'),
        },
        {
          path: paths.ltiOpenWindow.path,
          errorElement: ltiError,
          lazy: lazyPage(() => import('../features/lti/components/lti-open-window-page'), 'LtiOpenWindowPage'),
        },
        {
          path: paths.brightspaceAuthError.path,
          lazy: lazyPage(
            () => import('../features/brightspace/components/brightspace-auth-error-page'),
            'BrightspaceAuthErrorPage',
          ),
        },
        {
          path: paths.ltiError.path,
          errorElement: ltiError,
          lazy: lazyPage(() => import('../features/lti/components/lti-error-page'), 'LtiErrorPage'),
        },
        {
          path: paths.confirmEmail.path,
          lazy: lazyPage(() => import('../features/email-change/components/confirm-email-page'), 'ConfirmEmailPage'),
        },
        {
          path: paths.logout.path,
          lazy: lazyPage(() => import('../features/logout/components/logout-page'), 'LogoutPage'),
        },
        {
          element: (
            <OrganisationDeactivatedGate>
              <LoginGate fallback={<PageSpinner />}>
                <Outlet />
              </LoginGate>
            </OrganisationDeactivatedGate>
          ),
          children: [
            {
              element: <LtiFrame />,
              children: [
                { path: paths.ltiSimulation.path, errorElement: ltiError, element: remote('simulation') },
                { path: paths.ltiReport.path, errorElement: ltiError, element: remote('reports') },
              ],
            },
            {
              element: <Layout />,
              children: [
                {
                  // Inside the layout, so a failing page keeps the sidebar.
                  errorElement: <RouteErrorView />,
                  children: [
                    { index: true, element: <Navigate to={paths.simulation.getHref()} replace /> },
                    { path: paths.simulation.path, element: remote('simulation') },
                    { path: paths.report.path, element: remote('reports') },
                    {
                      path: paths.admin.path,
                      element: (
                        <RequirePermission anyOf={['global.client_access_admin_section']} fallback={<PageNotFoundPage />}>
                          {remote('admin')}
                        </RequirePermission>
                      ),
                    },
                    {
                      path: paths.support.path,
                      lazy: lazyPage(() => import('../features/support/components/support-page'), 'SupportPage'),
                    },
                    {
                      path: paths.downloads.path,
                      lazy: lazyPage(() => import('../features/downloads/components/downloads-page'), 'DownloadsPage'),
                    },
                    {
                      path: paths.preference.path,
                      lazy: lazyPage(() => import('../features/preference/components/preference-page'), 'PreferencePage'),
                    },
                    {
                      path: paths.underConstruction.path,
                      lazy: lazyPage(
                        () => import('../features/under-construction/components/under-construction-page'),
                        'UnderConstructionPage',
                      ),
                    },
                    {
                      path: paths.selfAssessment.path,
                      lazy: lazyPage(
                        () => import('../features/self-assessment/components/self-assessment-page'),
                        'SelfAssessmentPage',
                      ),
                    },
                    {
                      path: paths.brightspaceUserMismatch.path,
                      lazy: lazyPage(
                        () => import('../features/brightspace/components/brightspace-mismatch-page'),
                        'BrightspaceMismatchPage',
                      ),
                    },
                    { path: '*', element: <PageNotFoundPage /> },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export const createAppRouter = () => createBrowserRouter(createAppRoutes());
