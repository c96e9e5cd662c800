import { test as base } from '@playwright/test';
import { PortalPage } from './pages/portal-page';
import { ReportPage } from './pages/report-page';
import { SimulationPage } from './pages/simulation-page';

export const test = base.extend<{ portal: PortalPage; simulations: SimulationPage; reports: ReportPage }>({
  portal: async ({ page }, use) => {
    await use(new PortalPage(page));
  },
  simulations: async ({ page }, use) => {
    await use(new SimulationPage(page));
  },
  reports: async ({ page }, use) => {
    await use(new ReportPage(page));
  },
});
export { expect } from '@playwright/test';
