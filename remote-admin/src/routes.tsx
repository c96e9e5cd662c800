// What the host mounts under /admin (docs/architecture.md): route objects relative to the mount
// path. Translations ship with the remote and are registered as soon as it loads.
import { Navigate, NotFoundView, registerTranslations, type RouteObject } from '@portal/shared-ui';
import en from '../locales/en.json';
import de from '../locales/de.json';
import { AdminBase } from './features/admin-shell/components/admin-base';
import { SectionPlaceholderPage } from './features/admin-shell/components/section-placeholder-page';
import { OrganisationsPage } from './features/organisations/components/organisations-page';

registerTranslations({ en, de });

const routes: RouteObject[] = [
  {
    element: <AdminBase />,
    children: [
      { index: true, element: <Navigate to="organisation" replace /> },
      { path: 'organisation', element: <OrganisationsPage /> },
      {
        path: 'product',
        element: <SectionPlaceholderPage titleKey="admin.products" introKey="admin.productsIntro" />,
      },
      {
        path: 'notification',
        element: <SectionPlaceholderPage titleKey="admin.notifications" introKey="admin.notificationsIntro" />,
      },
      { path: '*', element: <NotFoundView /> },
    ],
  },
];

export default routes;
