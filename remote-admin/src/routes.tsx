// What the host mounts under /admin (docs/architecture.md): route objects relative to the mount
// path. Translations ship with the remote and are registered as soon as it loads.
import { RequirePermission } from '@portal/shared-auth';
import { Navigate, NotFoundView, type RouteObject } from '@portal/shared-ui';
import { AdminBase } from './components/admin-base';
import { paths } from './config/paths';
import {
  CHANGE_DOWNLOADS_GLOBALLY,
  CREATE_DOWNLOAD,
  CREATE_LICENCE,
  CREATE_ORGANISATION,
  CREATE_USERS,
  MANAGE_LEARNING_PLATFORMS,
  MANAGE_SIM_CONFIG,
  VIEW_DOWNLOADS,
  VIEW_LICENCES,
  VIEW_NOTIFICATIONS,
  VIEW_ORGANISATIONS,
  VIEW_USERS,
} from './config/permissions';
import { ActivityPage } from './features/activity/components/activity-page';
import { DownloadsPage } from './features/downloads/components/downloads-page';
import { EditDownloadPage } from './features/downloads/components/edit-download-page';
import { NewDownloadPage } from './features/downloads/components/new-download-page';
import { EditPlatformPage } from './features/learning-platforms/components/edit-platform-page';
import { LearningPlatformsPage } from './features/learning-platforms/components/learning-platforms-page';
import { NewPlatformPage } from './features/learning-platforms/components/new-platform-page';
import { EditLicencePage } from './features/licences/components/edit-licence-page';
import { LicencesPage } from './features/licences/components/licences-page';
import { NewLicencePage } from './features/licences/components/new-licence-page';
import { NewOrganisationPage } from './features/organisations/components/new-organisation-page';
import { OrganisationDetailsPage } from './features/organisations/components/organisation-details-page';
import { OrganisationLayout } from './features/organisations/components/organisation-layout';
import { OrganisationsPage } from './features/organisations/components/organisations-page';
import { NotificationsPage } from './features/notifications/components/notifications-page';
import { OrganisationNotificationsPage } from './features/notifications/components/organisation-notifications-page';
import { ConfigurationsPage } from './features/products/components/configurations-page';
import { EditConfigurationPage } from './features/products/components/edit-configuration-page';
import { NewConfigurationPage } from './features/products/components/new-configuration-page';
import { ProductLayout } from './features/products/components/product-layout';
import { ProductsPage } from './features/products/components/products-page';
import { BulkAddUsersPage } from './features/users/components/bulk-add-users-page';
import { EditUserPage } from './features/users/components/edit-user-page';
import { UsersPage } from './features/users/components/users-page';
import type { Permission } from '@portal/contract';
import type { ReactNode } from 'react';
import { remoteStrings } from './config/remote';

// webpack's run-time public path: where remoteEntry.js was loaded from, and so the strings.
declare const __webpack_public_path__: string | undefined;
remoteStrings.register(typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : undefined);

/** A screen the API would refuse anyway is "page not found" here too (docs/requirements.md#administration, #permissions). */
const gated = (anyOf: readonly Permission[], element: ReactNode) => (
  <RequirePermission anyOf={anyOf} fallback={<NotFoundView />}>
    {element}
  </RequirePermission>
);

const routes: RouteObject[] = [
  {
    element: <AdminBase />,
    children: [
      { index: true, element: <Navigate to={paths.organisations.path} replace /> },
      { path: paths.organisations.path, element: gated(VIEW_ORGANISATIONS, <OrganisationsPage />) },
      { path: paths.newOrganisation.path, element: gated(CREATE_ORGANISATION, <NewOrganisationPage />) },
      {
        path: paths.organisation.path,
        element: gated(VIEW_ORGANISATIONS, <OrganisationLayout />),
        children: [
          { index: true, element: <OrganisationDetailsPage /> },
          { path: paths.licences.path, element: gated(VIEW_LICENCES, <LicencesPage />) },
          { path: paths.newLicence.path, element: gated(CREATE_LICENCE, <NewLicencePage />) },
          { path: paths.licence.path, element: gated(VIEW_LICENCES, <EditLicencePage />) },
          { path: paths.users.path, element: gated(VIEW_USERS, <UsersPage />) },
          { path: paths.newUsers.path, element: gated(CREATE_USERS, <BulkAddUsersPage />) },
          { path: paths.user.path, element: gated(VIEW_USERS, <EditUserPage />) },
          { path: paths.activity.path, element: <ActivityPage /> },
          {
            path: paths.organisationNotifications.path,
            element: gated(VIEW_NOTIFICATIONS, <OrganisationNotificationsPage />),
          },
          { path: paths.learningPlatforms.path, element: gated(MANAGE_LEARNING_PLATFORMS, <LearningPlatformsPage />) },
          { path: paths.newLearningPlatform.path, element: gated(MANAGE_LEARNING_PLATFORMS, <NewPlatformPage />) },
          { path: paths.learningPlatform.path, element: gated(MANAGE_LEARNING_PLATFORMS, <EditPlatformPage />) },
          { path: '*', element: <NotFoundView /> },
        ],
      },
      { path: paths.products.path, element: gated(MANAGE_SIM_CONFIG, <ProductsPage />) },
      {
        path: paths.product.path,
        element: gated(MANAGE_SIM_CONFIG, <ProductLayout />),
        children: [
          { index: true, element: <ConfigurationsPage /> },
          { path: paths.newConfiguration.path, element: <NewConfigurationPage /> },
          { path: paths.configuration.path, element: <EditConfigurationPage /> },
          { path: paths.downloads.path, element: gated(VIEW_DOWNLOADS, <DownloadsPage />) },
          {
            path: paths.newDownload.path,
            // Both, as the API asks: the user permission and global administration.
            element: gated(CREATE_DOWNLOAD, gated(CHANGE_DOWNLOADS_GLOBALLY, <NewDownloadPage />)),
          },
          { path: paths.download.path, element: gated(VIEW_DOWNLOADS, <EditDownloadPage />) },
          { path: '*', element: <NotFoundView /> },
        ],
      },
      { path: paths.notifications.path, element: gated(VIEW_NOTIFICATIONS, <NotificationsPage />) },
      { path: '*', element: <NotFoundView /> },
    ],
  },
];

export default routes;
