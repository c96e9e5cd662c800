import type { Browser } from '@playwright/test';
import { test, expect } from '../fixtures';
import { PortalPage } from '../pages/portal-page';
import { ReportPage } from '../pages/report-page';
import { SimulatorPage } from '../pages/simulator-page';
import type { DemoEmail } from '../pages/sign-in-page';

// The whole loop with every real part: the portal and its remotes, the API on its database, the
// identity provider, and the browser simulator the launch link opens.
const UUID = /\/report\/([0-9a-f-]{36})$/;

async function signedIn(browser: Browser, email: DemoEmail, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const portal = new PortalPage(page);
  await portal.signInAt(path, email);
  await portal.acceptCookiesIfAsked();
  return { context, page, reports: new ReportPage(page) };
}

test('a learner launches a simulation, takes three images, gets a report and analyses it; their educator sees it, another organisation does not', async ({
  browser,
  portal,
  page,
  simulations,
  reports,
}) => {
  test.setTimeout(120_000);
  const reason = `Knee rotated — retake with the patella centred (${Date.now()})`;

  await portal.signInAt('/simulation', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();
  await simulations.drillDown('Radiography', 'Lower limb', 'Knee');

  const popup = page.waitForEvent('popup');
  await simulations.launchButton('Desktop').click();
  await expect(page.getByRole('heading', { name: 'Launching simulation' })).toBeVisible();
  const simulator = new SimulatorPage(await popup);
  await simulator.expectJoined('Radiography');
  await expect(page.getByRole('heading', { name: 'Simulation in progress' })).toBeVisible();

  await simulator.takeImages(3);
  await simulator.finish();
  await simulator.page.close();

  await expect(page).toHaveURL(UUID, { timeout: 20_000 });
  const reportPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name: 'Knee', level: 1 })).toBeVisible();
  for (const n of [1, 2, 3]) await expect(reports.evidence(n)).toBeVisible();
  await expect(reports.evidence(1).getByText(/mGy\*cm²/)).toBeVisible();
  await reports.analyse(1, 'Rejected', reason);
  await page.reload();
  await expect(reports.evidence(1).getByText(reason)).toBeVisible();
  await expect(reports.evidence(1).getByText('Rejected')).toBeVisible();

  // The educator of the same organisation finds it among the learner reports and opens it.
  const educator = await signedIn(browser, 'educator@demo.test', '/report/learner');
  await educator.reports.search('Knee');
  const row = educator.page.getByRole('row').filter({ hasText: 'Lena Learner' }).first();
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: 'View report' }).click();
  await expect(educator.page).toHaveURL(UUID);
  await expect(educator.reports.evidence(1).getByText(reason)).toBeVisible();
  await expect(educator.page.getByRole('button', { name: 'Analyse' })).toHaveCount(0);
  await educator.context.close();

  // Other College has no educator: its learner sees neither the learner reports nor this report.
  const other = await signedIn(browser, 'learner@other.test', reportPath);
  await expect(other.page.getByRole('heading', { name: /Seite nicht gefunden|Page not found/ })).toBeVisible();
  await expect(other.page.getByText(reason)).toHaveCount(0);
  await other.page.goto('/report/learner');
  await expect(other.page.getByRole('heading', { name: /Seite nicht gefunden|Page not found/ })).toBeVisible();
  await other.context.close();
});
