import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import { PortalPage } from '../pages/portal-page';
import type { ReportPage } from '../pages/report-page';

// Issue #25: a report pages its evidence, each page asking for its own images' signed URLs (they
// used to be asked for the first 100 images only; report-paging.test.tsx in remote-reports pages a
// 200-image session). Also the learner reports' View report link at phone width (pinned column).
// 25 images: three pages, within the API's 60 uploads a minute, so nothing waits.
const UUID = /\/report\/([0-9a-f-]{36})$/;
const IMAGES = 25;
const PAGE_SIZE = 10;

async function expectPictures(page: Page, reports: ReportPage, first: number, last: number) {
  await expect(reports.shownEvidence()).toHaveCount(last - first + 1);
  for (let n = first; n <= last; n += 1) {
    const picture = reports.evidence(n).getByRole('img', { name: new RegExp(`^X-ray image ${n}:`) });
    await expect(picture).toBeVisible();
    // Loaded, not a broken link: the signed URL is real.
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  await expect(page.getByText('The image could not be loaded.')).toHaveCount(0);
}

test('a session of three pages of images is paged in the report, every image shows, and a page change closes the analysis form; at 390 px the educator reaches View report', async ({
  browser,
  portal,
  page,
  simulations,
  reports,
}) => {
  test.setTimeout(120_000);

  await portal.signInAt('/simulation', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();
  await simulations.drillDown('Radiography', 'Lower limb', 'Knee');
  const simulator = await simulations.launchDesktop('Radiography');
  await simulator.postImages(IMAGES);
  await simulator.page.reload();
  await simulator.finish();
  await simulator.page.close();

  await expect(page).toHaveURL(UUID, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Knee', level: 1 })).toBeVisible();
  const pages = Math.ceil(IMAGES / PAGE_SIZE);
  await expect(page.getByRole('status').filter({ hasText: /^Evidence page/ })).toHaveText(`Evidence page 1 of ${pages}`);
  await expectPictures(page, reports, 1, PAGE_SIZE);

  // Paging resets editing: a form opened on page 1 is closed on page 2 and stays closed back on 1.
  await reports.evidence(1).getByRole('button', { name: 'Analyse' }).click();
  await expect(reports.evidence(1).getByRole('button', { name: 'Save' })).toBeVisible();
  await reports.evidencePages().getByRole('button', { name: 'Next' }).click();
  await expect(reports.evidence(PAGE_SIZE + 1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await reports.evidencePages().getByRole('button', { name: 'Previous' }).click();
  await expect(reports.evidence(1).getByRole('button', { name: 'Analyse' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

  // The last page, by keyboard: its images' URLs asked for on their own.
  await reports.evidencePages().getByRole('button', { name: `Page ${pages}`, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Evidence page/ })).toHaveText(`Evidence page ${pages} of ${pages}`);
  await expectPictures(page, reports, (pages - 1) * PAGE_SIZE + 1, IMAGES);

  // An image analysed on the last page: the report comes back to that page, with the result.
  const reason = `Paged analysis (${Date.now()})`;
  await reports.analyse(IMAGES, 'Accepted', reason);
  await expect(page.getByRole('status').filter({ hasText: /^Evidence page/ })).toHaveText(`Evidence page ${pages} of ${pages}`);

  // The educator on a phone: the View report link is pinned in view and followed by keyboard.
  const context = await browser.newContext();
  const phone = await context.newPage();
  const educator = new PortalPage(phone);
  // Signed in at desktop width, where the welcome line it waits for is on screen; then a phone.
  await educator.signInAt('/report/learner', 'educator@demo.test');
  await educator.acceptCookiesIfAsked();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.reload();
  const link = phone.getByRole('link', { name: 'View report' }).first();
  await expect(link).toBeInViewport();
  await phone.getByRole('gridcell').filter({ has: link }).first().focus();
  await phone.keyboard.press('Enter');
  await expect(phone).toHaveURL(UUID);
  await context.close();
});
