import { test, expect } from '../fixtures';
import { PortalPage } from '../pages/portal-page';
import { recordIdentityPages } from '../pages/sign-in-page';

// A launch is a sign-in (issue #22 point 1): Lena Learner2 exists only in the learning-platform
// stand-in. Her launch from the Demo course creates her portal user, and the portal signs her in
// through the identity provider's brokering of the API's launch sign-in broker — no sign-in form,
// no password, no invitation.
// The e2e stack addresses the stand-in as 127.0.0.1 (scripts/services.mjs).
const LMS_URL = process.env.LMS_URL ?? 'http://127.0.0.1:8100';

test('Lena Learner2 launches from the Demo course (new window) and reaches the launch screen without any sign-in form', async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  // Every page the identity provider renders on the way (a sign-in form would be one).
  const identityPages = recordIdentityPages(page);

  await page.goto(`${LMS_URL}/login`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill('learner2@demo.test');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Demo course' })).toBeVisible();

  await page.getByRole('button', { name: 'Launch Radiography', exact: true }).click();
  await expect(page).toHaveURL(/\/lti\/simulation\/launch/, { timeout: 20_000 });
  const portal = new PortalPage(page);
  await portal.acceptCookiesIfAsked();
  await expect(page.getByRole('heading', { name: 'Launching simulation' })).toBeVisible();
  expect(identityPages).toEqual([]);
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveCount(0);
  await context.close();
});
