import { test, expect } from '../fixtures';

test('the interface follows the stored language and the preference page switches it', async ({ portal, page }) => {
  // learner@other.test has German stored as language.
  await portal.signInAt('/', 'learner@other.test');
  await expect(page.getByRole('button', { name: 'Alle erlauben' })).toBeVisible();
  await page.getByRole('button', { name: 'Alle erlauben' }).click();
  await expect(page.getByRole('heading', { name: 'Simulationen' })).toBeVisible();

  await page.goto('/user/6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0005/preference');
  await page.getByLabel('Sprache').selectOption({ label: 'English' });
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  // Back to German, so the account is as seeded for the next run against a kept database.
  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Speichern' })).toBeVisible();
});
