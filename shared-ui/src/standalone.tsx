// `@portal/shared-ui/standalone`: a remote running alone for development (`pnpm --filter
// @portal/remote-<name> dev`), its routes inside the providers the host gives them. Production
// never runs it: a host loads ./routes through remoteEntry.js. Not part of the main entry; it
// imports shared-ui by its package name so the federated singleton is the one it renders with.
import type { ComponentType, ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  createBrowserRouter,
  initI18n,
  Navigate,
  Outlet,
  PageSpinner,
  RouterProvider,
  UiProvider,
  type RouteObject,
} from '@portal/shared-ui';
import { mountPaths, type RemoteManifest } from '@portal/contract/remotes';
import sharedDe from '@portal/shared-ui/locales/de.json';
import sharedEn from '@portal/shared-ui/locales/en.json';

/** What the page needs of shared-auth; `import * as sharedAuth from '@portal/shared-auth'` fits. */
export interface StandaloneAuth {
  AUTH_CALLBACK_PATH: string;
  AuthProvider: ComponentType<{ authority: string; clientId: string; apiBaseUrl: string; children: ReactNode }>;
  LoginGate: ComponentType<{ fallback?: ReactNode; children: ReactNode }>;
  PortalSWRConfig: ComponentType<{ children: ReactNode }>;
}

export interface StandaloneOptions {
  auth: StandaloneAuth;
  routes: RouteObject[];
  /** The remote's entry in the remote manifest: its routes mount where the host mounts them. */
  remote: RemoteManifest;
  productName?: string;
  /** '' = this origin; the dev server proxies /api to the API. */
  apiBaseUrl?: string;
  /**
   * The local identity provider. Add this dev server's origin to its FRONTEND_ORIGINS
   * (e.g. http://localhost:8083) so it accepts the redirect.
   */
  oidc?: { authority: string; clientId: string };
}

export const STANDALONE_DEFAULTS = {
  productName: 'Simulation Portal',
  apiBaseUrl: '',
  oidc: { authority: 'http://localhost:8180/realms/main', clientId: 'frontend' },
} as const;

/**
 * The route tree of the standalone page: '/' goes to the layout mount, then the callback, then
 * every mount behind the login gate.
 */
export function standaloneRoutes({ auth, routes, remote }: Pick<StandaloneOptions, 'auth' | 'routes' | 'remote'>): RouteObject[] {
  const { LoginGate } = auth;
  return [
    { path: '/', element: <Navigate to={remote.mount} replace /> },
    { path: auth.AUTH_CALLBACK_PATH, element: <PageSpinner /> },
    {
      element: (
        <LoginGate fallback={<PageSpinner />}>
          <Outlet />
        </LoginGate>
      ),
      children: mountPaths(remote).map((mount) => ({ path: `${mount}/*`, children: routes })),
    },
  ];
}

/** Renders the standalone page into #root once i18next is ready. */
export async function startStandalone(options: StandaloneOptions): Promise<void> {
  const { auth, productName, apiBaseUrl, oidc } = { ...STANDALONE_DEFAULTS, ...options };
  const { AuthProvider, PortalSWRConfig } = auth;
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const router = createBrowserRouter(standaloneRoutes(options));
  // Bundled shared-ui strings: the dev server has no merged /locales like the host serves; the
  // remote's own namespace loads from the dev server as it does from the deployed remote.
  await initI18n({
    resources: { en: { translation: sharedEn }, de: { translation: sharedDe } },
    partialBundled: true,
  });
  createRoot(container).render(
    <UiProvider productName={productName}>
      <AuthProvider authority={oidc.authority} clientId={oidc.clientId} apiBaseUrl={apiBaseUrl}>
        <PortalSWRConfig>
          <RouterProvider router={router} />
        </PortalSWRConfig>
      </AuthProvider>
    </UiProvider>,
  );
}
