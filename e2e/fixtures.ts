import { test as base } from '@playwright/test';
import { PortalPage } from './pages/portal-page';

export const test = base.extend<{ portal: PortalPage }>({
  portal: async ({ page }, use) => {
    await use(new PortalPage(page));
  },
});
export { expect } from '@playwright/test';
