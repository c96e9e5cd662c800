import { test, expect } from '../fixtures';
import { ReportPage } from '../pages/report-page';

// Issue #23 point 3: an educator comments a learner's image and overrides a criterion's mark; the
// learner then reads both beside their own analysis. The educator here is the demo global
// administrator (view_all_reports, any organisation), whose signed-in state auth.setup keeps.
// A session launched from the desktop has no learning platform, so there is no grade to release
// or gradebook to check here: api/test/marking/grade-release-lms.test.ts covers that.
const UUID = /\/report\/([0-9a-f-]{36})$/;

test.use({ storageState: '.auth/learner.json' });

test('an educator comments an image and overrides a mark; the learner sees the feedback', async ({
  browser,
  page,
  simulations,
  reports,
}) => {
  await page.goto('/simulation');
  await simulations.drillDown('Radiography', 'Lower limb', 'Knee');
  const simulator = await simulations.launchDesktop('Radiography');
  await simulator.postImages(1);
  await simulator.page.reload();
  await simulator.finish();
  await simulator.page.close();
  await expect(page).toHaveURL(UUID, { timeout: 20_000 });
  const url = page.url();

  const context = await browser.newContext({ storageState: '.auth/sysadmin.json' });
  try {
    const educator = await context.newPage();
    const educatorReports = new ReportPage(educator);
    await educator.goto(url);
    await expect(educatorReports.evidence(1).getByRole('table', { name: /^Marks/ })).toBeVisible();
    await educatorReports.commentImage(1, 'Centre on the joint space.');
    await educatorReports.overrideMark(1, 'Centring', '0.5', 'Joint space not visible.');
  } finally {
    await context.close();
  }

  await page.reload();
  const image = reports.evidence(1);
  await expect(
    image.getByRole('region', { name: "Educator's feedback on this image" }).getByText('Centre on the joint space.'),
  ).toBeVisible();
  await expect(image.getByText(/Overridden by .*: Joint space not visible\./)).toBeVisible();
  await expect(image.getByRole('row', { name: /Centring/ }).locator('del')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Comment on this image' })).toHaveCount(0);
});
