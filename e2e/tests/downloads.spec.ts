import { test, expect } from '../fixtures';

test.use({ storageState: '.auth/learner.json' });

test('the downloads page lists the entitled installers and a version link downloads the file', async ({ page }) => {
  await page.goto('/simulation');
  await page.getByRole('link', { name: 'Downloads' }).click();
  await expect(page.getByRole('heading', { name: 'Downloads', level: 1 })).toBeVisible();

  const radiography = page.getByRole('region', { name: 'Radiography' });
  await expect(radiography.getByText('Windows')).toBeVisible();
  await expect(radiography.getByText('macOS')).toBeVisible();

  const download = page.waitForEvent('download');
  await radiography.getByRole('link', { name: /^2\.4\.1/ }).first().click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/radiography.*2\.4\.1.*\.zip$/i);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  // A ZIP archive starts with "PK".
  expect(Buffer.concat(chunks).subarray(0, 2).toString()).toBe('PK');
});
