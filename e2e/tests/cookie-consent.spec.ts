import { test, expect } from '../fixtures';

test.describe('the cookie consent modal', () => {
  test('allow all closes it and it stays closed after a reload', async ({ portal, page }) => {
    await portal.signInAt('/', 'educator@demo.test');
    const dialog = portal.cookieDialog();
    await expect(dialog).toBeVisible();
    // Clicking outside does not dismiss it.
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Allow all' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(portal.welcome('Eddie', 'Educator')).toBeVisible();
    await expect(portal.cookieDialog()).toBeHidden();
  });

  test('deny all logs the user out', async ({ portal, page }) => {
    await portal.signInAt('/', 'orgadmin@demo.test');
    await portal.cookieDialog().getByRole('button', { name: 'Deny all' }).click();
    await portal.signInPage.expectVisible();
    await page.goto('/simulation');
    await portal.signInPage.expectVisible();
  });
});
