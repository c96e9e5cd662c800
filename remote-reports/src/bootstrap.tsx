// Stand-alone page for development: the remote's routes inside the same providers the host gives
// them. Production never loads this file; the host loads ./routes through remoteEntry.js.
import { createRoot } from 'react-dom/client';
import { AUTH_CALLBACK_PATH, AuthProvider, LoginGate, PortalSWRConfig } from '@portal/shared-auth';
import {
  createBrowserRouter,
  initI18n,
  Navigate,
  Outlet,
  PageSpinner,
  RouterProvider,
  UiProvider,
} from '@portal/shared-ui';
import sharedDe from '@portal/shared-ui/locales/de.json';
import sharedEn from '@portal/shared-ui/locales/en.json';
import routes from './routes';
import { devConfig } from './standalone/dev-config';

const router = createBrowserRouter([
  { path: '/', element: <Navigate to={devConfig.mountPath} replace /> },
  { path: AUTH_CALLBACK_PATH, element: <PageSpinner /> },
  {
    element: (
      <LoginGate fallback={<PageSpinner />}>
        <Outlet />
      </LoginGate>
    ),
    children: [{ path: `${devConfig.mountPath}/*`, children: routes }],
  },
]);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Bundled shared-ui strings: the dev server has no merged /locales like the host serves.
const resources = { en: { translation: sharedEn }, de: { translation: sharedDe } };

void initI18n({ resources }).then(() => {
  createRoot(container).render(
    <UiProvider productName={devConfig.productName}>
      <AuthProvider authority={devConfig.oidc.authority} clientId={devConfig.oidc.clientId} apiBaseUrl={devConfig.apiBaseUrl}>
        <PortalSWRConfig>
          <RouterProvider router={router} />
        </PortalSWRConfig>
      </AuthProvider>
    </UiProvider>,
  );
});
