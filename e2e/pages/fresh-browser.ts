import type { Browser } from '@playwright/test';
import { PortalPage } from './portal-page';

/**
 * Someone else's browser: no cookies, nothing stored. Spelled out, because a new context would
 * otherwise get the storage state the test file `use`s (a signed-in administrator, say).
 */
export async function freshBrowser(browser: Browser) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  return { context, page, portal: new PortalPage(page) };
}
