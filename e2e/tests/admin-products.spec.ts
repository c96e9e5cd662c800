import { randomBytes } from 'node:crypto';
import type { Browser } from '@playwright/test';
import { test, expect } from '../fixtures';

// Issue #9: products administration with every real part — remote-admin in the host, the
// configuration and installer uploads into the API's storage, the learner's downloads page and
// the signed installer URL. Version 3.0.0 is the issue's: the spec expects a fresh stack (the
// e2e stack's database is in memory); the configuration name is unique per run.
test.use({ storageState: '.auth/sysadmin.json' });

/** The learner's own browser (newContext() would otherwise get the sysadmin's storage state). */
async function learnerDownloads(browser: Browser) {
  const context = await browser.newContext({ storageState: '.auth/learner.json' });
  const page = await context.newPage();
  await page.goto('/simulation');
  await page.getByRole('link', { name: 'Downloads' }).click();
  await expect(page.getByRole('heading', { name: 'Downloads', level: 1 })).toBeVisible();
  return { context, page, radiography: page.getByRole('region', { name: 'Radiography' }) };
}

test('a system administrator adds a Radiography configuration and Windows version 3.0.0 with its installer; the learner downloads the same bytes; once deactivated it is gone for her', async ({
  browser,
  page,
  products,
}) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now()}`;

  await products.open('Radiography');
  await products.createConfiguration({
    name: `E2E ankle ${stamp}`,
    configFile: {
      name: `ankle-${stamp}.json`,
      json: { examination: 'ankle', bodyArea: 'lower-limb', exposure: { kv: 60, mAs: 5 }, sourceImageDistanceCm: 110 },
    },
    practiceViewCategory: 'Lower limb',
  });
  await expect(page.getByRole('table', { name: 'Product configurations' }).getByRole('cell', { name: `E2E ankle ${stamp}`, exact: true })).toBeVisible();

  // A ZIP's signature (the API checks it) and random bytes: what the learner gets must be this
  // upload, not a seeded demo installer.
  const installer = {
    name: 'radiography-3.0.0-windows.zip',
    bytes: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(256 * 1024)]),
  };
  await products.openTab('Downloads');
  await products.createDownload({
    version: '3.0.0',
    operatingSystem: 'Windows',
    fileUrl: 'https://downloads.example.com/radiography-3.0.0-windows.zip',
    installer,
  });
  await expect(products.downloadRow('3.0.0', 'Windows')).toContainText('Active');

  const learner = await learnerDownloads(browser);
  const version = learner.radiography.getByRole('link', { name: /^3\.0\.0/ });
  await expect(version).toBeVisible();
  const download = learner.page.waitForEvent('download');
  await version.click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(installer.name);
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(installer.bytes)).toBe(true);

  await products.deactivateDownload('3.0.0', 'Windows');
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Downloads' }).click();
  await expect(products.downloadRow('3.0.0', 'Windows')).toContainText('Inactive');

  await learner.page.reload();
  await expect(learner.page.getByRole('heading', { name: 'Downloads', level: 1 })).toBeVisible();
  await expect(learner.radiography.getByText('Windows').first()).toBeVisible();
  await expect(learner.radiography.getByRole('link', { name: /^3\.0\.0/ })).toHaveCount(0);
  await expect(learner.radiography.getByRole('button', { name: /^3\.0\.0/ })).toHaveCount(0);
  await learner.context.close();
});
