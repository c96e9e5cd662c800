import { test, expect } from '../fixtures';

test.describe('the admin area', () => {
  test.describe('for a learner', () => {
    test.use({ storageState: '.auth/learner.json' });
    test('is a page not found and has no sidebar link', async ({ page }) => {
      await page.goto('/admin/organisation');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Administration' })).toHaveCount(0);
    });
  });

  test.describe('for the system administrator', () => {
    test.use({ storageState: '.auth/sysadmin.json' });
    test('shows the organisations from the admin remote', async ({ page }) => {
      const remoteEntries: string[] = [];
      page.on('request', (r) => r.url().endsWith('remoteEntry.js') && remoteEntries.push(r.url()));
      await page.goto('/simulation');
      await page.getByRole('link', { name: 'Administration' }).click();
      await expect(page).toHaveURL(/\/admin\/organisation$/);
      await expect(page.getByRole('heading', { name: 'Organisations' })).toBeVisible();
      expect(remoteEntries).toContain('http://localhost:8083/remoteEntry.js');
    });
  });
});
