import type { Browser, Locator, Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import {
  ACCOUNTS,
  ADMINS,
  declaredPatterns,
  LANGUAGES,
  REPORT_READERS,
  ROUTES,
  WIDTHS,
  WITHOUT_PAGE,
  type Ids,
  type Role,
} from '../pages/accessibility-routes';
import {
  callApiAs,
  expectNoAxeViolations,
  setCookiePreference,
  WCAG22_AND_BEST_PRACTICE_TAGS,
} from '../pages/axe';
import { freshBrowser } from '../pages/fresh-browser';
import type { PortalPage } from '../pages/portal-page';
import { demoAccount, type DemoEmail } from '../pages/sign-in-page';
import { SimulationPage } from '../pages/simulation-page';
import demo from '../../contract/src/demo-accounts.json' with { type: 'json' };

// The one accessibility suite. Our rule: every screen passes axe — WCAG 2.2 A/AA and best
// practice — with no violation, for every role that may open it, at desktop and phone widths, in
// English and German, and works by keyboard alone. The route sweep covers every route the apps
// declare (pages/accessibility-routes.ts); the tests before it cover what a route alone does not
// reach: the identity provider's pages, the cookie modal, forms opened, error states, launches
// from a learning platform and the walk by keyboard. Screens are checked once their content has
// loaded: a skeleton or spinner passing says nothing about the page people use.

const IDENTITY_DEVICE_PAGE = 'http://localhost:8180/realms/main/device';
const LEARNER = demoAccount('learner@demo.test');
const GERMAN_LEARNER = demoAccount('learner@other.test');

/** Waits for a page's content: its level-one heading, and no part of it still loading. */
async function settled(
  page: Page,
  ready: Locator = page.getByRole('heading', { level: 1 }).first(),
) {
  await expect(ready).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Opens a path with a fresh page load and waits for its content. */
async function open(page: Page, path: string, heading: string | RegExp = /.+/) {
  await page.goto(path);
  await settled(page, page.getByRole('heading', { level: 1, name: heading }).first());
}

/** The layout's route announcer: pages outside the layout (logout, LTI, errors) have none. */
const ANNOUNCER = '[data-testid="route-announcer"]';
const inLayout = async (page: Page) => (await page.locator(ANNOUNCER).count()) > 0;

/**
 * Pushes `url` as the router's own history entry (with navigation state `usr`) and tells the
 * router, as a link would: no reload.
 */
async function pushRoute(page: Page, url: string, usr: unknown = null) {
  await page.evaluate(
    ({ target, state }) => {
      (document.activeElement as HTMLElement | null)?.blur();
      const idx = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
      history.pushState({ usr: state, key: `a11y-${idx}`, idx }, '', target);
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    },
    { target: url, state: usr },
  );
}

/**
 * Goes to `url` inside the running app (pushRoute). From a page in the layout only: done when the
 * layout's route announcer has moved focus for the new page (to its heading, or wherever the page
 * put it on purpose), which it does once the new route has rendered — or when the layout is gone,
 * the new route being outside it — so the check cannot run on the page before.
 */
async function navigateInApp(page: Page, url: string) {
  await pushRoute(page, url);
  const rendered = await page
    .waitForFunction(
      (announcer) => {
        if (!document.querySelector(announcer)) return true;
        const active = document.activeElement;
        return active !== null && active !== document.body && active.tagName !== 'MAIN';
      },
      ANNOUNCER,
      { timeout: ANNOUNCER_WAIT_MS },
    )
    .then(
      () => true,
      () => false,
    );
  // The announcer stops waiting for a heading after 5 s (a remote's first load on a busy
  // machine can take longer): then nothing says the new route is there, and a page load does.
  if (rendered) await settled(page);
  else await open(page, url);
}

/** A little over the route announcer's own wait for the new page's heading. */
const ANNOUNCER_WAIT_MS = 6_000;

/**
 * The launch screen for a leaf without a configuration. No seeded leaf lacks one, so the launch
 * screen gets the navigation state the mode buttons would give for one, as the router's own
 * history entry.
 */
async function openLaunchWithoutConfiguration(page: Page, heading: string | RegExp) {
  await open(page, '/simulation');
  await pushRoute(page, '/simulation/launch', {
    configuration: null,
    mode: 'Desktop',
    productId: 1,
    categoryId: null,
  });
  await settled(page, page.getByRole('heading', { level: 1, name: heading }));
}

/** A fresh context signed in as `email`, so the cookie modal shows if they have not chosen yet. */
async function signInFresh(browser: Browser, email: DemoEmail, path = '/support') {
  const fresh = await freshBrowser(browser);
  await fresh.portal.signInAt(path, email);
  return fresh;
}

test('every declared route has an accessibility check or a reason why it has no page of its own', () => {
  const listed = new Set([...ROUTES.map((r) => r.pattern), ...WITHOUT_PAGE.map((r) => r.pattern)]);
  const missing = declaredPatterns().filter((pattern) => !listed.has(pattern));
  expect(missing, 'routes without an entry in pages/accessibility-routes.ts').toEqual([]);
});

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

  test('the change-password page the sidebar opens, with its errors, in English and German', async ({ browser }) => {
    const context = await browser.newContext({ storageState: '.auth/sysadmin.json' });
    const page = await context.newPage();
    await open(page, '/support', 'Support centre');
    const authorise = page.waitForRequest(
      (r) => r.frame() === page.mainFrame() && r.url().includes('kc_action=UPDATE_PASSWORD'),
    );
    await page
      .getByRole('navigation', { name: 'Account navigation' })
      .getByRole('button', { name: 'Change password' })
      .click();
    const url = new URL((await authorise).url());
    await expect(page.getByLabel('Current password')).toBeFocused();
    await expectNoAxeViolations(page, 'change-password page');

    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Enter your current password.')).toBeVisible();
    await expectNoAxeViolations(page, 'change-password page with errors');

    url.searchParams.set('kc_locale', 'de');
    await page.goto(url.href);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByLabel('Aktuelles Passwort')).toBeVisible();
    await expectNoAxeViolations(page, 'German change-password page');
    await context.close();
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

test.describe('the cookie modal', () => {
  test('in English, with its details open (an educator’s first visit)', async ({ browser }) => {
    const educator = demoAccount('educator@demo.test');
    const { context, page, portal } = await signInFresh(browser, 'educator@demo.test');
    try {
      // The modal shows on the first visit (cookie-consent.spec relies on that too).
      await expect(portal.cookieDialog()).toBeVisible();
      await expectNoAxeViolations(page, 'cookie modal', WCAG22_AND_BEST_PRACTICE_TAGS);
      await portal.cookieDialog().getByText('Preferences', { exact: true }).click();
      await expect(
        portal.cookieDialog().getByRole('heading', { name: 'Essential cookies' }),
      ).toBeVisible();
      await expectNoAxeViolations(
        page,
        'cookie modal with its details open',
        WCAG22_AND_BEST_PRACTICE_TAGS,
      );
    } finally {
      await setCookiePreference(page, educator.sub, false).catch(() => undefined);
      await context.close();
    }
  });

  test('in German, then the catalogue’s own content in German (learner@other.test)', async ({
    browser,
  }) => {
    const { context, page, portal } = await signInFresh(browser, 'learner@other.test', '/');
    try {
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      const allow = portal.cookieDialog().getByRole('button', { name: 'Alle erlauben' });
      await expect(allow).toBeVisible();
      await expectNoAxeViolations(page, 'cookie modal (de)', WCAG22_AND_BEST_PRACTICE_TAGS);
      await allow.click();
      await expect(portal.cookieDialog()).toBeHidden();

      await settled(page, page.getByRole('heading', { level: 1, name: 'Simulationen' }));
      // Catalogue content in German too, not only the interface (issue #12).
      await expect(page.getByRole('main')).toContainText('Radiographie');
      await expect(page.getByRole('main')).toContainText('Lagern Sie den Patienten');
      await expect(page.getByRole('main')).not.toContainText('Position the patient');
    } finally {
      // language.spec expects this account never to have chosen.
      await setCookiePreference(page, GERMAN_LEARNER.sub, false).catch(() => undefined);
      await context.close();
    }
  });
});

test.describe('states a route alone does not reach (learner)', () => {
  test.use({ storageState: '.auth/learner.json' });

  test('a category drilled down to a leaf with its mode buttons', async ({ page, simulations }) => {
    await open(page, '/simulation', 'Simulations');
    await simulations.drillDown('Radiography', 'Lower limb', 'Knee');
    await settled(page, simulations.launchButton('Desktop'));
    await expectNoAxeViolations(page, 'leaf with mode buttons', WCAG22_AND_BEST_PRACTICE_TAGS);
  });

  test('the launch screen’s problem pages, in the portal and from a learning platform', async ({
    page,
  }) => {
    await openLaunchWithoutConfiguration(page, 'Problem starting simulation');
    await expect(page.getByText('it has no configuration')).toBeVisible();
    await expectNoAxeViolations(page, 'launch problem page', WCAG22_AND_BEST_PRACTICE_TAGS);

    await open(
      page,
      '/lti/simulation/launch?launchId=x&productId=1&mode=Desktop',
      'Problem starting simulation',
    );
    await expectNoAxeViolations(
      page,
      'LTI launch problem page (no configuration)',
      WCAG22_AND_BEST_PRACTICE_TAGS,
    );

    await open(
      page,
      '/lti/simulation/launch?launchId=x&productId=999&mode=Desktop&configuration=a',
      'Problem starting simulation',
    );
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoAxeViolations(
      page,
      'LTI launch problem page (product not available)',
      WCAG22_AND_BEST_PRACTICE_TAGS,
    );

    await open(page, '/lti/launch');
    await expectNoAxeViolations(page, 'LTI launch without a launch', WCAG22_AND_BEST_PRACTICE_TAGS);
    await open(page, '/report/learner', 'Page not found');
    await expectNoAxeViolations(page, 'page not found in a remote', WCAG22_AND_BEST_PRACTICE_TAGS);
  });

  test('the sidebar’s notifications list open', async ({ page, portal }) => {
    await open(page, '/simulation', 'Simulations');
    await portal.notificationsButton().click();
    const list = portal.notificationsList();
    await settled(page, list.getByRole('link').first().or(list.getByText('No notifications yet.')));
    await expectNoAxeViolations(page, 'notifications list', WCAG22_AND_BEST_PRACTICE_TAGS);
  });

  test('a report with the analysis form open', async ({ page }) => {
    const { reportId } = await learnerReport(page);
    await open(page, `/report/${reportId}`);
    const image = page.getByRole('article', { name: /^Image 1:/ });
    await settled(page, image);
    await image.getByRole('button', { name: 'Analyse' }).click();
    await settled(page, image.getByLabel('Analysis status'));
    await expectNoAxeViolations(
      page,
      'report page with the analysis form',
      WCAG22_AND_BEST_PRACTICE_TAGS,
    );
  });
});

const api = async <T>(page: Page, path: string): Promise<T> => {
  const response = await callApiAs(page, 'GET', path);
  expect(response.status(), `GET ${path}`).toBe(200);
  return (await response.json()) as T;
};

/**
 * The learner's newest report, made through the simulator when the fresh stack has none. Hip, not
 * the Knee of learner-loop.spec, whose educator looks for its own report by that name.
 */
async function learnerReport(page: Page): Promise<{ reportId: string; evidenceId: number }> {
  const list = async () =>
    (await api<{ results: { uuid: string }[] }>(page, '/api/v1/report?page=1&pageSize=1'))
      .results[0];
  if (!page.url().startsWith('http')) await open(page, '/support');
  let report = await list();
  if (!report) {
    const simulations = new SimulationPage(page);
    await simulations.open();
    await simulations.drillDown('Radiography', 'Lower limb', 'Hip');
    const simulator = await simulations.launchDesktop('Radiography');
    await simulator.takeImages(1);
    await simulator.finish();
    await simulator.page.close();
    await expect(page).toHaveURL(/\/report\/[0-9a-f-]{36}$/, { timeout: 20_000 });
    report = await list();
  }
  if (!report) throw new Error('no report for the learner');
  const detail = await api<{ evidence: { id: number }[] }>(page, `/api/v1/report/${report.uuid}`);
  const evidence = detail.evidence[0];
  if (!evidence) throw new Error('the report has no evidence');
  return { reportId: report.uuid, evidenceId: evidence.id };
}

/** The ids the role's routes need, found through the API as that role. */
async function idsFor(browser: Browser, page: Page, role: Role, sub: string) {
  const ids: Ids = {
    userId: sub,
    learnerId: LEARNER.sub,
    organisationId: 0,
    licenceId: 0,
    reportId: '',
    evidenceId: 0,
    productId: 0,
    configurationId: 0,
    downloadId: 0,
    platformId: 0,
  };
  ids.productId = (await api<{ id: number }[]>(page, '/api/v1/product'))[0]?.id ?? 0;
  if (ADMINS.includes(role)) {
    const organisations = await api<{ results: { id: number; name: string }[] }>(
      page,
      '/api/v1/organisation?pageSize=100',
    );
    ids.organisationId = organisations.results.find((o) => o.name === 'Demo Hospital')?.id ?? 0;
    const licences = await api<{ results: { id: number }[] }>(
      page,
      `/api/v1/organisation/${ids.organisationId}/license-block?pageSize=1`,
    );
    ids.licenceId = licences.results[0]?.id ?? 0;
  }
  if (role === 'sysadmin') {
    const base = `/api/v1/product/${ids.productId}`;
    ids.configurationId =
      (await api<{ results: { id: number }[] }>(page, `${base}/configuration?pageSize=1`))
        .results[0]?.id ?? 0;
    ids.downloadId =
      (await api<{ results: { id: number }[] }>(page, `${base}/simulation-download?pageSize=1`))
        .results[0]?.id ?? 0;
    // The demo seed registers the learning-platform stand-in for Demo Hospital.
    ids.platformId =
      (
        await api<{ results: { id: number }[] }>(
          page,
          `/api/v1/lti/platform?organisation=${ids.organisationId}&pageSize=1`,
        )
      ).results[0]?.id ?? 0;
  }
  if (REPORT_READERS.includes(role)) {
    if (role === 'learner') Object.assign(ids, await learnerReport(page));
    else {
      const learner = await signInFresh(browser, ACCOUNTS.learner);
      try {
        Object.assign(ids, await learnerReport(learner.page));
      } finally {
        await learner.context.close();
      }
    }
  }
  return ids;
}

interface Preference {
  language: string;
  skinTone: number | null;
}

test.describe('every route, for every role that may open it', () => {
  for (const role of Object.keys(ACCOUNTS) as Role[]) {
    test(`the ${role}’s routes, desktop and phone, English and German`, async ({ browser }) => {
      const routes = ROUTES.filter((route) => route.roles.includes(role));
      test.setTimeout(60_000 + routes.length * 6_000);
      const { context, page } = await signInFresh(browser, ACCOUNTS[role]);
      const { sub } = demoAccount(ACCOUNTS[role]);
      const preferencePath = `/api/v1/user/${sub}/preference`;
      const stored = await api<Preference>(page, preferencePath);
      const cookie = await api<{ allowEssentialCookies: boolean }>(
        page,
        `/api/v1/user/${sub}/cookie-preference`,
      );
      // The cookie modal has its own tests above; here it would cover every page.
      await setCookiePreference(page, sub, true);
      try {
        const ids = await idsFor(browser, page, role, sub);
        const failures: string[] = [];
        for (const language of LANGUAGES) {
          const put = await callApiAs(page, 'PUT', preferencePath, { ...stored, language });
          expect(put.status(), `PUT ${preferencePath}`).toBe(200);
          // The language is read when the app loads: the first route of each pass is a page load.
          await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
          await open(page, routes[0]!.url(ids));
          for (const [index, route] of routes.entries()) {
            // A page load is slower than the app's own navigation, which needs the layout.
            if (index > 0 && (await inLayout(page))) await navigateInApp(page, route.url(ids));
            else if (index > 0) await open(page, route.url(ids));
            await expect(page.locator('html')).toHaveAttribute('lang', language);
            for (const size of WIDTHS) {
              await page.setViewportSize({ width: size.width, height: size.height });
              try {
                await expectNoAxeViolations(
                  page,
                  `${route.pattern} as ${role}, ${size.name}, ${language}`,
                  WCAG22_AND_BEST_PRACTICE_TAGS,
                );
              } catch (error) {
                failures.push((error as Error).message.split('\n\nExpected')[0] ?? String(error));
              }
            }
          }
        }
        // All routes are checked before failing, so one run lists everything to fix.
        expect(failures, failures.join('\n\n')).toEqual([]);
        test.info().annotations.push({
          type: 'checked',
          description: `${routes.length} routes × ${WIDTHS.length} widths × ${LANGUAGES.length} languages`,
        });
      } finally {
        await callApiAs(page, 'PUT', preferencePath, stored);
        if (cookie.allowEssentialCookies !== true) await setCookiePreference(page, sub, false);
        await context.close();
      }
    });
  }
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
