import { test, expect } from '../fixtures';

test.use({ storageState: '.auth/learner.json' });

test('the sidebar opens the identity provider’s device login page in the user’s language', async ({ page, context }) => {
  await page.goto('/simulation');
  const link = page.getByRole('link', { name: 'Device login' });
  await expect(link).toHaveAttribute('href', 'http://localhost:8180/realms/main/device?kc_locale=en');
  await expect(link).toHaveAttribute('target', '_blank');
  const [devicePage] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(devicePage.getByLabel('Code')).toBeVisible();
  await expect(devicePage.getByRole('button', { name: 'Continue' })).toBeVisible();
});
