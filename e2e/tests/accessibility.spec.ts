import type { Browser, Locator, Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import { expectNoAxeViolations, setCookiePreference } from '../pages/axe';
import { PortalPage } from '../pages/portal-page';
import { demoAccount, type DemoEmail } from '../pages/sign-in-page';
import { SimulationPage } from '../pages/simulation-page';
import { SimulatorPage } from '../pages/simulator-page';
import demo from '../../contract/src/demo-accounts.json' with { type: 'json' };

// Our rule: every screen passes axe (WCAG 2.1 A/AA) with no violation, in English and German, and
// works by keyboard alone. Screens are checked once their content has loaded: a skeleton or spinner
// passing says nothing about the page people use.

const IDENTITY_DEVICE_PAGE = 'http://localhost:8180/realms/main/device';
const LEARNER = demoAccount('learner@demo.test');
const GERMAN_LEARNER = demoAccount('learner@other.test');

/** Opens a path and waits for its level-one heading, then for the page's requests to settle. */
async function open(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await settled(page, page.getByRole('heading', { level: 1, name: heading }));
}

async function settled(page: Page, ready: Locator) {
  await expect(ready).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * The launch screen for a leaf without a configuration. No seeded leaf lacks one, so the launch
 * screen gets the navigation state the mode buttons would give for one, as the router's own
 * history entry.
 */
async function openLaunchWithoutConfiguration(page: Page, heading: string | RegExp) {
  await page.goto('/simulation');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const idx = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    const usr = { configuration: null, mode: 'Desktop', productId: 1, categoryId: null };
    history.pushState({ usr, key: 'a11y', idx }, '', '/simulation/launch');
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  });
  await settled(page, page.getByRole('heading', { level: 1, name: heading }));
}

/**
 * A fresh context signed in as `email` on its first visit, so the cookie modal shows as it does
 * for anyone who has not chosen yet.
 */
async function signInFresh(browser: Browser, email: DemoEmail, path = '/') {
  const context = await browser.newContext();
  const page = await context.newPage();
  const portal = new PortalPage(page);
  await portal.signInAt(path, email);
  return { context, page, portal };
}

test.describe('the sign-in page (identity provider)', () => {
  test('in English, also after a failed attempt', async ({ page, portal }) => {
    await page.goto('/simulation');
    await portal.signInPage.expectVisible();
    await expectNoAxeViolations(page, 'sign-in page');

    await page.getByLabel('Email').fill('learner@demo.test');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoAxeViolations(page, 'sign-in page with an error');
  });

  test('in German', async ({ page }) => {
    // The language is chosen on the provider's authorisation request, as Keycloak's kc_locale.
    // The main frame's request, not the silent prompt=none check in its hidden iframe.
    const authorise = page.waitForRequest(
      (r) => r.frame() === page.mainFrame() && r.url().includes('/protocol/openid-connect/auth'),
    );
    await page.goto('/simulation');
    const url = new URL((await authorise).url());
    // Let the first request end on its (English) page, so it cannot cut the next one short.
    await expect(page.getByLabel('Password')).toBeVisible();
    url.searchParams.set('kc_locale', 'de');
    await page.goto(url.href);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByLabel('Passwort')).toBeVisible();
    await expectNoAxeViolations(page, 'German sign-in page');
  });

  test('the device login page the sidebar links to, in English and German', async ({ page }) => {
    for (const [locale, button] of [
      ['en', 'Continue'],
      ['de', 'Weiter'],
    ] as const) {
      await page.goto(`${IDENTITY_DEVICE_PAGE}?kc_locale=${locale}`);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('button', { name: button }).first()).toBeVisible();
      await expectNoAxeViolations(page, `device login page (${locale})`);
    }
  });
});

test.describe('the learner’s screens in English', () => {
  test.use({ storageState: '.auth/learner.json' });

  test('simulations, a category, a leaf with its mode buttons', async ({ page, simulations }) => {
    await open(page, '/simulation', 'Simulations');
    await expect(page.getByRole('link', { name: 'Radiography', exact: true })).toBeVisible();
    await expectNoAxeViolations(page, 'simulation cards');

    await simulations.drillDown('Radiography');
    await settled(page, page.getByRole('heading', { level: 1, name: 'Radiography' }));
    await expectNoAxeViolations(page, 'product categories');

    await simulations.drillDown('Lower limb');
    await settled(page, page.getByRole('heading', { level: 1, name: 'Lower limb' }));
    await expectNoAxeViolations(page, 'category drill-down');

    await simulations.drillDown('Knee');
    await settled(page, simulations.launchButton('Desktop'));
    await expectNoAxeViolations(page, 'leaf with mode buttons');
  });

  test('the launch screen’s problem page, in the portal and from a learning platform', async ({
    page,
  }) => {
    await openLaunchWithoutConfiguration(page, 'Problem starting simulation');
    await expect(page.getByText('it has no configuration')).toBeVisible();
    await expectNoAxeViolations(page, 'launch problem page');

    await open(
      page,
      '/lti/simulation/launch?launchId=x&productId=1&mode=Desktop',
      'Problem starting simulation',
    );
    await expectNoAxeViolations(page, 'LTI launch problem page (no configuration)');

    await open(
      page,
      '/lti/simulation/launch?launchId=x&productId=999&mode=Desktop&configuration=a',
      'Problem starting simulation',
    );
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoAxeViolations(page, 'LTI launch problem page (product not available)');
  });

  test('reports, a report and the no-report page', async ({ page, context }) => {
    test.setTimeout(120_000);
    await open(page, '/report', 'Your reports');
    await expectNoAxeViolations(page, 'your reports');

    // The fresh stack has no report: make one the way a learner does, through the simulator. Hip,
    // not the Knee of learner-loop.spec, whose educator looks for its own report by that name.
    let view = page.getByRole('link', { name: 'View report' }).first();
    if ((await view.count()) === 0) {
      const simulations = new SimulationPage(page);
      await simulations.open();
      await simulations.drillDown('Radiography', 'Lower limb', 'Hip');
      const popup = context.waitForEvent('page');
      await simulations.launchButton('Desktop').click();
      const simulator = new SimulatorPage(await popup);
      await simulator.expectJoined('Radiography');
      await simulator.takeImages(1);
      await simulator.finish();
      await simulator.page.close();
      await expect(page).toHaveURL(/\/report\/[0-9a-f-]{36}$/, { timeout: 20_000 });
      await open(page, '/report', 'Your reports');
      view = page.getByRole('link', { name: 'View report' }).first();
    }
    await view.click();
    await settled(page, page.getByRole('article', { name: /^Image 1:/ }));
    await expectNoAxeViolations(page, 'report page');

    await page
      .getByRole('article', { name: /^Image 1:/ })
      .getByRole('button', { name: 'Analyse' })
      .click();
    await settled(page, page.getByLabel('Analysis status'));
    await expectNoAxeViolations(page, 'report page with the analysis form');

    await open(page, '/report/no-report', /.+/);
    await expectNoAxeViolations(page, 'no-report page');
  });

  test('downloads, preferences, support and the smaller host pages', async ({ page }) => {
    const screens: [string, string, string | RegExp][] = [
      ['downloads', `/user/${LEARNER.sub}/downloads`, 'Downloads'],
      ['preferences', `/user/${LEARNER.sub}/preference`, 'Preferences'],
      ['support', '/support', 'Support centre'],
      ['page not found', '/no/such/page', 'Page not found'],
      ['page not found in a remote', '/report/learner', 'Page not found'],
      ['under construction', '/under-construction', /.+/],
      ['self-assessment', '/self-assessment', 'Self-assessment'],
      ['LTI launch without a launch', '/lti/launch', /.+/],
      ['LTI error', '/lti/error', /.+/],
    ];
    for (const [name, path, heading] of screens) {
      await test.step(name, async () => {
        await open(page, path, heading);
        await expectNoAxeViolations(page, name);
      });
    }
  });
});

test.describe('the check itself', () => {
  test.use({ storageState: '.auth/learner.json' });

  test('fails on a violation, naming the rule, the element and the help page', async ({ page }) => {
    await open(page, '/support', 'Support centre');
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.id = 'unlabelled-image';
      img.src = '/favicon.svg';
      document.querySelector('main')?.append(img);
    });
    const failure = await expectNoAxeViolations(page, 'support with an unlabelled image').then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain('image-alt');
    expect(failure).toContain('#unlabelled-image');
    expect(failure).toMatch(/https:\/\/dequeuniversity\.com\/rules\/axe\/[\d.]+\/image-alt/);
  });
});

test.describe('the educator’s screens', () => {
  test('the cookie modal, then the learner reports', async ({ browser }) => {
    const educator = demoAccount('educator@demo.test');
    const { context, page, portal } = await signInFresh(
      browser,
      'educator@demo.test',
      '/report/learner',
    );
    try {
      // The modal shows on the first visit (cookie-consent.spec relies on that too).
      await expect(portal.cookieDialog()).toBeVisible();
      await expectNoAxeViolations(page, 'cookie modal');
      await portal.cookieDialog().getByText('Preferences', { exact: true }).click();
      await expect(
        portal.cookieDialog().getByRole('heading', { name: 'Essential cookies' }),
      ).toBeVisible();
      await expectNoAxeViolations(page, 'cookie modal with its details open');

      await portal.acceptCookiesIfAsked();
      await settled(page, page.getByRole('searchbox', { name: 'Search' }));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, 'learner reports');
    } finally {
      await setCookiePreference(page, educator.sub, false).catch(() => undefined);
      await context.close();
    }
  });
});

test.describe('the German interface (learner@other.test)', () => {
  test('cookie modal, simulations, a category, reports, downloads, preferences, support, page not found', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const { context, page, portal } = await signInFresh(browser, 'learner@other.test');
    try {
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(
        portal.cookieDialog().getByRole('button', { name: 'Alle erlauben' }),
      ).toBeVisible();
      await expectNoAxeViolations(page, 'cookie modal (de)');
      await portal.cookieDialog().getByRole('button', { name: 'Alle erlauben' }).click();
      await expect(portal.cookieDialog()).toBeHidden();

      await settled(page, page.getByRole('heading', { level: 1, name: 'Simulationen' }));
      // Catalogue content in German too, not only the interface (issue #12).
      await expect(page.getByRole('main')).toContainText('Radiographie');
      await expect(page.getByRole('main')).toContainText('Lagern Sie den Patienten');
      await expect(page.getByRole('main')).not.toContainText('Position the patient');
      await expectNoAxeViolations(page, 'simulation cards (de)');

      const firstCard = page.getByRole('main').getByRole('list').first().getByRole('link').first();
      const product = (await firstCard.textContent()) ?? '';
      await firstCard.click();
      await settled(page, page.getByRole('heading', { level: 1, name: product }));
      await expectNoAxeViolations(page, 'product categories (de)');

      await openLaunchWithoutConfiguration(page, 'Problem beim Starten der Simulation');
      await expectNoAxeViolations(page, 'launch problem page (de)');

      const screens: [string, string, string | RegExp][] = [
        ['your reports (de)', '/report', /.+/],
        ['downloads (de)', `/user/${GERMAN_LEARNER.sub}/downloads`, 'Downloads'],
        ['preferences (de)', `/user/${GERMAN_LEARNER.sub}/preference`, 'Einstellungen'],
        ['support (de)', '/support', 'Support-Center'],
        ['page not found (de)', '/no/such/page', 'Seite nicht gefunden'],
      ];
      for (const [name, path, heading] of screens) {
        await test.step(name, async () => {
          await open(page, path, heading);
          await expect(page.locator('html')).toHaveAttribute('lang', 'de');
          await expectNoAxeViolations(page, name);
        });
      }
    } finally {
      // language.spec expects this account never to have chosen.
      await setCookiePreference(page, GERMAN_LEARNER.sub, false).catch(() => undefined);
      await context.close();
    }
  });
});

test.describe('the administration (system administrator)', () => {
  test.use({ storageState: '.auth/sysadmin.json' });

  test('organisations and the screens of an organisation', async ({ page }) => {
    test.setTimeout(90_000);
    await open(page, '/admin/organisation', 'Organisations');
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoAxeViolations(page, 'organisation list');

    // Whichever organisation is listed first: its links give the organisation's own screens.
    await page.getByRole('table').getByRole('link').first().click();
    await expect(page).toHaveURL(/\/admin\/organisation\/\d+$/);
    const base = new URL(page.url()).pathname;
    await settled(page, page.getByRole('heading', { level: 1 }));
    await expectNoAxeViolations(page, 'organisation details');

    const screens: [string, string][] = [
      ['new organisation', '/admin/organisation/new'],
      ['licences', `${base}/license`],
      ['new licence', `${base}/license/new`],
      ['users', `${base}/user`],
      ['add users', `${base}/user/new`],
      ['products', '/admin/product'],
      ['notifications', '/admin/notification'],
    ];
    for (const [name, path] of screens) {
      await test.step(name, async () => {
        await open(page, path, /.+/);
        await expectNoAxeViolations(page, name);
      });
    }
  });
});

/** What the browser would paint around the focused element: an outline or a ring (box-shadow). */
async function focusIndicator(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'no focus';
    const visible = (node: Element) => {
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || style.boxShadow !== 'none';
    };
    // Cards draw their ring on ::after of the link.
    const after = getComputedStyle(el, '::after');
    const afterRing =
      after.content !== 'none' &&
      after.outlineStyle !== 'none' &&
      parseFloat(after.outlineWidth) > 0;
    return visible(el) || afterRing
      ? 'visible'
      : `invisible on ${el.tagName.toLowerCase()} "${el.textContent?.trim()}"`;
  });
}

/** Presses Tab until `target` has focus, checking at every stop that focus can be seen. */
async function tabTo(page: Page, target: Locator, maxStops = 60) {
  for (let stop = 0; stop < maxStops; stop += 1) {
    await page.keyboard.press('Tab');
    expect(await focusIndicator(page)).toBe('visible');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${target.toString()} not reached in ${maxStops} Tab presses`);
}

test.describe('by keyboard alone', () => {
  // Signed out: the walk starts at the identity provider's sign-in page.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a learner completes the loop without the mouse: sign-in, cookie modal with its preferences, launch, simulator, report, analysis', async ({
    page,
    portal,
  }) => {
    test.setTimeout(150_000);
    await page.goto('/simulation');
    const email = page.getByLabel('Email');
    // The sign-in page puts the keyboard on the e-mail field.
    await expect(email).toBeFocused();
    await page.keyboard.type(LEARNER.email);
    await tabTo(page, page.getByLabel('Password'));
    await page.keyboard.type(demo.password);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Simulations' })).toBeVisible();
    // Back to "not chosen", so the modal opens on the next visit.
    await setCookiePreference(page, LEARNER.sub, false);
    try {
      await walkByKeyboard(page, portal);
    } finally {
      // Every other test signs in as this learner with the choice made.
      await setCookiePreference(page, LEARNER.sub, true);
    }
  });
});

async function walkByKeyboard(page: Page, portal: PortalPage) {
  await page.reload();

  const dialog = portal.cookieDialog();
  await expect(dialog).toBeVisible();
  const allow = dialog.getByRole('button', { name: 'Allow all' });
  await expect(allow).toBeFocused();
  // Focus stays inside the modal: Tab wraps around from its last control to its first.
  await page.keyboard.press('Tab');
  await expect(dialog.getByText('Preferences', { exact: true })).toBeFocused();
  expect(await focusIndicator(page)).toBe('visible');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('heading', { name: 'Essential cookies' })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('heading', { name: 'Essential cookies' })).toBeHidden();
  await page.keyboard.press('Shift+Tab');
  await expect(allow).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Deny all' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(allow).toBeFocused();
  // Not dismissible: Escape leaves the choice open.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  await tabTo(page, page.getByRole('link', { name: 'Radiography', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Radiography' })).toBeVisible();

  await tabTo(page, page.getByRole('link', { name: 'Lower limb', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Lower limb' })).toBeVisible();

  // Ankle: learner-loop.spec's educator looks for the learner's Knee report.
  await tabTo(page, page.getByRole('link', { name: 'Ankle', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Ankle' })).toBeVisible();
  // Navigation put focus on the new page's heading (issue #12): the next Tab starts there.
  await expect(page.getByRole('heading', { level: 1, name: 'Ankle' })).toBeFocused();

  const desktop = page.getByRole('button', { name: 'Desktop', exact: true });
  await tabTo(page, desktop);
  const popup = page.context().waitForEvent('page');
  await page.keyboard.press('Enter');

  // The simulator (the stand-in for the desktop app) is a page of ours: by keyboard too.
  const simulator = await popup;
  await expect(simulator.getByRole('heading', { name: 'Radiography simulator' })).toBeVisible();
  await tabTo(simulator, simulator.getByRole('button', { name: 'Take image' }));
  await simulator.keyboard.press('Enter');
  await expect(simulator.getByRole('img', { name: /X-ray/i })).toHaveCount(1);
  await tabTo(simulator, simulator.getByRole('button', { name: 'Finish session' }));
  await simulator.keyboard.press('Enter');
  await expect(simulator.getByText('Session complete')).toBeVisible();
  await simulator.close();

  // The portal lands on the new report; analyse image 1 from the keyboard.
  await expect(page).toHaveURL(/\/report\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const image = page.getByRole('article', { name: /^Image 1:/ });
  await expect(image).toBeVisible();
  await tabTo(page, image.getByRole('button', { name: 'Analyse' }));
  await page.keyboard.press('Enter');
  const status = image.getByLabel('Analysis status');
  await expect(status).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(status).not.toHaveValue('');
  const reason = `Ankle well centred (${Date.now()})`;
  await tabTo(page, image.getByLabel('Reason'));
  await page.keyboard.type(reason);
  await tabTo(page, image.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(image.getByText(reason)).toBeVisible();

  // The choice the modal saved is the one the API keeps.
  await page.reload();
  await expect(image.getByText(reason)).toBeVisible();
  await expect(dialog).toBeHidden();
}
