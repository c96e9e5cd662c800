import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { test, expect } from '../fixtures';
import { SimulatorPage } from '../pages/simulator-page';

// Embedded launches (issue #22 point 2): the stand-in's "Launch … (embedded)" link shows the
// portal inside its iframe. The stand-in is on 127.0.0.1, the portal on localhost: two sites, so
// the frame is a third-party one, as under a real learning platform. A launch is a sign-in (point
// 1): where the browser keeps third-party cookies, the frame is to sign in through the identity
// provider's brokering without a form, as on https in production (the launch's and the identity
// provider's cookies are SameSite=None; Secure, which browsers keep on loopback http too); where
// it blocks them, the frame offers "Open in a new window".
const LMS_URL = process.env.LMS_URL ?? 'http://127.0.0.1:8100';
const PORTAL = 'http://localhost:8080';

async function embeddedLaunch(browser: Browser | BrowserContext) {
  const context = 'newContext' in browser ? await browser.newContext() : browser;
  const page = await context.newPage();
  await page.goto(`${LMS_URL}/login`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill('learner2@demo.test');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Demo course' })).toBeVisible();
  await page.getByRole('link', { name: 'Launch Radiography (embedded)' }).click();
  const frame = page.frameLocator('iframe[name="lti-tool"]');
  return { context, page, frame };
}

test("the embedded link shows the portal's launch page inside the platform's frame", async ({
  browser,
}) => {
  const { context, page, frame } = await embeddedLaunch(browser);
  // The portal's own page, not a refused frame: the launch screen once the in-frame sign-in is
  // through, or "Continue in a new window" where the browser keeps no third-party cookie.
  await expect(
    frame
      .getByRole('heading', { name: 'Launching simulation' })
      .or(frame.getByRole('heading', { name: 'Continue in a new window' })),
  ).toBeVisible({ timeout: 20_000 });
  const tool = page.frames().find((f) => f.name() === 'lti-tool')!;
  expect(new URL(tool.url()).origin).toBe(PORTAL);
  expect(new URL(tool.url()).pathname).toMatch(/^\/lti\/(launch|simulation\/launch)$/);
  expect(new URL(tool.url()).hash).toBe('');
  await context.close();
});

// Issue #22 point 6 (a). The sign-in inside the frame passes the identity provider's pages of
// the brokered sign-in (which the platforms may frame) and comes back to the host's
// /lti/auth/callback, the return page of the /lti/ pages (the root's /auth/callback keeps
// frame-ancestors 'none'); its session check is /lti/silent-check-sso.html, which names the
// platforms as well, since frame-ancestors is checked against every ancestor.
test('Lena Learner2 launches embedded, is signed in inside the frame without any form, completes a session and her score reaches the gradebook', async () => {
  test.setTimeout(60_000);
  // Playwright's contexts are private (off-the-record) profiles, where Chromium blocks third-party
  // cookies as Chrome's private windows do. A browser profile of her own keeps them, as Chrome's
  // ordinary windows do (cookie controls off, said explicitly in the profile's preferences).
  const profile = await mkdtemp(path.join(os.tmpdir(), 'lti-embedded-'));
  await mkdir(path.join(profile, 'Default'));
  await writeFile(path.join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
  // The project's own browser options (no background networking, component updates or sync: a
  // fresh profile starts faster without them).
  const ordinary = await chromium.launchPersistentContext(profile, test.info().project.use.launchOptions ?? {});
  try {
    await launchAndComplete(ordinary);
  } finally {
    await ordinary.close();
    await rm(profile, { recursive: true, force: true });
  }
});

async function launchAndComplete(context: BrowserContext) {
  // Every document a frame refuses (frame-ancestors, X-Frame-Options): the launch's sign-in and
  // its session checks pass the platform's frame, so none may be refused.
  const refused: string[] = [];
  context.on('requestfailed', (request) => {
    if (request.failure()?.errorText === 'net::ERR_BLOCKED_BY_RESPONSE') refused.push(request.url().split('?')[0]!);
  });
  const { page, frame } = await embeddedLaunch(context);
  // Every document the frame shows; a sign-in form (the identity provider's) must never be one.
  const passwordFields: string[] = [];
  page.on('framenavigated', async (navigated) => {
    if (navigated.name() !== 'lti-tool') return;
    const count = await navigated.locator('input[type="password"]').count().catch(() => 0);
    if (count > 0) passwordFields.push(navigated.url());
  });
  const popup = page.waitForEvent('popup');
  await expect(frame.getByRole('heading', { name: 'Launching simulation' })).toBeVisible({ timeout: 20_000 });
  const allow = frame.getByRole('button', { name: 'Allow all' });
  if (await allow.isVisible().catch(() => false)) await allow.click();
  const tool = page.frames().find((f) => f.name() === 'lti-tool')!;
  expect(new URL(tool.url()).origin).toBe(PORTAL);
  await expect(frame.getByRole('textbox', { name: 'Email' })).toHaveCount(0);
  await expect(frame.locator('input[type="password"]')).toHaveCount(0);

  const simulator = new SimulatorPage(await popup);
  await simulator.expectJoined('Radiography');
  await simulator.takeImages(2);
  await simulator.finish();
  await simulator.page.close();
  expect(passwordFields).toEqual([]);
  expect(refused).toEqual([]);

  // The portal computes her score from the submitted images and posts it to the platform (AGS).
  await page.goto(`${LMS_URL}/gradebook`);
  const row = page.getByRole('table', { name: 'Radiography' }).getByRole('row', { name: /Lena Learner2/ });
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('Completed, FullyGraded', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText(/\d+(\.\d+)? \/ 100/);
}

test('with third-party cookies blocked the frame offers "Open in a new window", which continues the launch top level', async () => {
  // A browser of its own that blocks third-party cookies, as Safari, Firefox and private windows do.
  const blocking = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--test-third-party-cookie-phaseout'],
  });
  try {
    const { context, page, frame } = await embeddedLaunch(blocking);
    await expect(frame.getByRole('heading', { name: 'Continue in a new window' })).toBeVisible();
    const open = frame.getByRole('link', { name: 'Open in a new window' });
    const popup = context.waitForEvent('page');
    await open.click();
    const window = await popup;
    await window.waitForURL(/\/lti\/launch\?launchId=/);
    expect(new URL(window.url()).hash).toBe('');
    await expect(frame.getByRole('status')).toHaveText('The activity continues in the new window.');
    // Top level, the launch is a sign-in (issue #22 point 1): no form, straight to the launch screen.
    await window.waitForURL(/\/lti\/simulation\/launch/, { timeout: 20_000 });
    expect(new URL(window.url()).origin).toBe(PORTAL);
    await expect(window.getByRole('textbox', { name: 'Email' })).toHaveCount(0);
    await page.close();
  } finally {
    await blocking.close();
  }
});
