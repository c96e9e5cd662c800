import { test as base } from '@playwright/test';
import { AdminLicencePage } from './pages/admin-licence-page';
import { AdminOrganisationPage } from './pages/admin-organisation-page';
import { AdminProductsPage } from './pages/admin-products-page';
import { AdminUsersPage } from './pages/admin-users-page';
import { PortalPage } from './pages/portal-page';
import { ReportPage } from './pages/report-page';
import { SimulationPage } from './pages/simulation-page';

export const test = base.extend<{
  portal: PortalPage;
  simulations: SimulationPage;
  reports: ReportPage;
  organisations: AdminOrganisationPage;
  licences: AdminLicencePage;
  users: AdminUsersPage;
  products: AdminProductsPage;
}>({
  portal: async ({ page }, use) => {
    await use(new PortalPage(page));
  },
  simulations: async ({ page }, use) => {
    await use(new SimulationPage(page));
  },
  reports: async ({ page }, use) => {
    await use(new ReportPage(page));
  },
  organisations: async ({ page }, use) => {
    await use(new AdminOrganisationPage(page));
  },
  licences: async ({ page }, use) => {
    await use(new AdminLicencePage(page));
  },
  users: async ({ page }, use) => {
    await use(new AdminUsersPage(page));
  },
  products: async ({ page }, use) => {
    await use(new AdminProductsPage(page));
  },
});
export { expect } from '@playwright/test';
