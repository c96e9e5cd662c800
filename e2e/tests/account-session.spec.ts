import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import { freshBrowser } from '../pages/fresh-browser';
import demo from '../../contract/src/demo-accounts.json' with { type: 'json' };

// The system administrator: its sign-in lands in the portal directly and the setup already
// accepted its cookies, so nothing here changes what another spec finds on a first visit.
const ACCOUNT = 'sysadmin@demo.test';
const IDENTITY_LOGOUT = 'http://localhost:8180/realms/main/protocol/openid-connect/logout';

test('a sign-out at the identity provider in another tab shows this tab the sign-in page within 10 s', async ({
  browser,
}) => {
  // A session of its own: ending the setup's would sign other specs out.
  const { context, page, portal } = await freshBrowser(browser);
  await portal.signInAt('/support', ACCOUNT);
  // The tab watches its session through the provider's login-status iframe.
  await expect
    .poll(() => page.frames().some((frame) => frame.url().endsWith('/login-status-iframe.html')))
    .toBe(true);

  const other = await context.newPage();
  await other.goto(IDENTITY_LOGOUT);
  await other.getByRole('button', { name: 'Log out' }).click();
  await expect(other.getByText('You have logged out.')).toBeVisible();
  const signedOutAt = Date.now();

  // The login-status check runs every 5 s; nothing else tells this tab (no refresh is due).
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 10_000 });
  expect(Date.now() - signedOutAt).toBeLessThan(10_000);
  await context.close();
});

/** The sidebar's "Change password", by keyboard on the identity provider's form. */
async function changePassword(page: Page, from: string, to: string) {
  await page.getByRole('navigation', { name: 'Account navigation' }).getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await expect(page.getByLabel('Current password')).toBeFocused();
  await page.keyboard.type(from);
  await page.keyboard.press('Tab');
  await page.keyboard.type(to);
  await page.keyboard.press('Tab');
  await page.keyboard.type(to);
  await page.keyboard.press('Enter');
}

test('a user changes the password from the sidebar and is back on the same page', async ({ browser }) => {
  // A session of its own: the action signs in anew at the identity provider, which replaces the
  // session it runs in, and the login-status check would then sign out every spec after this one
  // that uses the setup's stored administrator.
  const { context, page, portal } = await freshBrowser(browser);
  await portal.signInAt('/support?topic=e2e', ACCOUNT);
  await portal.acceptCookiesIfAsked();
  await expect(page.getByRole('heading', { level: 1, name: 'Support centre' })).toBeVisible();
  const newPassword = 'e2e-changed-password';

  await changePassword(page, demo.password, newPassword);
  await expect(page).toHaveURL(/\/support\?topic=e2e$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Support centre' })).toBeVisible();

  // Only the new password is the current one now; the account gets its demo password back.
  await changePassword(page, newPassword, demo.password);
  await expect(page).toHaveURL(/\/support\?topic=e2e$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Support centre' })).toBeVisible();
  await context.close();
});
