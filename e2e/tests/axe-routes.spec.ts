import type { Browser, BrowserContext, Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import { callApiAs, expectNoAxeViolations, setCookiePreference, WCAG22_AND_BEST_PRACTICE_TAGS } from '../pages/axe';
import { PortalPage } from '../pages/portal-page';
import { demoAccount, type DemoEmail } from '../pages/sign-in-page';
import { SimulationPage } from '../pages/simulation-page';
import { SimulatorPage } from '../pages/simulator-page';
import { paths as hostPaths } from '../../host/src/config/paths';
import { MOUNT_PATHS as SIMULATION_MOUNTS, paths as simulationPaths } from '../../remote-simulation/src/config/paths';
import { paths as reportPaths } from '../../remote-reports/src/config/paths';
import { paths as adminPaths } from '../../remote-admin/src/config/paths';

// Issue #12: every route of the portal passes axe — WCAG 2.2 A/AA and best practice — for every
// role that may open it, at desktop and phone widths, in English and German. The route table
// below is checked against the apps' own path tables, so a new route without a check fails here.

type Role = 'learner' | 'educator' | 'orgadmin' | 'sysadmin';
const ACCOUNTS: Record<Role, DemoEmail> = {
  learner: 'learner@demo.test',
  educator: 'educator@demo.test',
  orgadmin: 'orgadmin@demo.test',
  sysadmin: 'sysadmin@demo.test',
};
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const LANGUAGES = ['en', 'de'] as const;

/** What a route needs to be opened: ids found through the API once per role. */
interface Ids {
  userId: string;
  learnerId: string;
  organisationId: number;
  licenceId: number;
  reportId: string;
  evidenceId: number;
  productId: number;
  configurationId: number;
  downloadId: number;
  platformId: number;
}

interface RouteCheck {
  /** The route pattern as the apps declare it (mount path + remote path). */
  pattern: string;
  roles: readonly Role[];
  url: (ids: Ids) => string;
}

/** A pattern with no page of its own, and why. */
interface RouteWithoutPage {
  pattern: string;
  why: string;
}

const ALL: readonly Role[] = ['learner', 'educator', 'orgadmin', 'sysadmin'];
const REPORT_READERS: readonly Role[] = ['learner', 'educator'];
const ADMINS: readonly Role[] = ['orgadmin', 'sysadmin'];

const ROUTES: readonly RouteCheck[] = [
  // Host pages.
  { pattern: '/support', roles: ALL, url: () => '/support' },
  { pattern: '/user/:userId/downloads', roles: ALL, url: (ids) => `/user/${ids.userId}/downloads` },
  { pattern: '/user/:userId/preference', roles: ALL, url: (ids) => `/user/${ids.userId}/preference` },
  { pattern: '/under-construction', roles: ['learner'], url: () => '/under-construction' },
  { pattern: '/self-assessment', roles: ['learner'], url: () => '/self-assessment' },
  // Reached directly (not from the menu), it asks "Log out?" and waits for an answer.
  { pattern: '/logout', roles: ['learner'], url: () => '/logout' },
  { pattern: '/brightspace-user-mismatch', roles: ['learner'], url: () => '/brightspace-user-mismatch' },
  { pattern: '/brightspace-auth/error', roles: ['learner'], url: () => '/brightspace-auth/error?error=ACCESS_DENIED' },
  { pattern: '/lti/error', roles: ['learner'], url: () => '/lti/error' },
  // Without a token: its "not valid" message. email-change.spec checks the page with a real link.
  { pattern: '/confirm-email', roles: ['learner'], url: () => '/confirm-email' },
  // Without a launch: its error page. The picker itself needs a deep linking launch (lti-platform.spec).
  { pattern: '/lti/deep-link', roles: ['educator'], url: () => '/lti/deep-link' },
  { pattern: '*', roles: ['learner', 'sysadmin'], url: () => '/no-such-page' },
  // Simulations.
  { pattern: '/simulation', roles: ALL, url: () => '/simulation' },
  { pattern: '/simulation/:productId/*', roles: ['learner'], url: (ids) => `/simulation/${ids.productId}` },
  { pattern: '/simulation/launch', roles: ['learner'], url: () => '/simulation/launch' },
  { pattern: '/simulation/launch/error', roles: ['learner'], url: () => '/simulation/launch/error' },
  // Reports.
  { pattern: '/report', roles: REPORT_READERS, url: () => '/report' },
  { pattern: '/report/learner', roles: ['educator'], url: () => '/report/learner' },
  { pattern: '/report/no-report', roles: ['learner'], url: () => '/report/no-report' },
  { pattern: '/report/:reportId', roles: REPORT_READERS, url: (ids) => `/report/${ids.reportId}` },
  {
    pattern: '/report/:reportId/evidence/:evidenceId/analysis',
    roles: ['learner'],
    url: (ids) => `/report/${ids.reportId}/evidence/${ids.evidenceId}/analysis`,
  },
  // Administration.
  { pattern: '/admin/organisation', roles: ADMINS, url: () => '/admin/organisation' },
  { pattern: '/admin/organisation/new', roles: ['sysadmin'], url: () => '/admin/organisation/new' },
  { pattern: '/admin/organisation/:organisationId', roles: ADMINS, url: (ids) => `/admin/organisation/${ids.organisationId}` },
  { pattern: '/admin/organisation/:organisationId/license', roles: ADMINS, url: (ids) => `/admin/organisation/${ids.organisationId}/license` },
  { pattern: '/admin/organisation/:organisationId/license/new', roles: ['sysadmin'], url: (ids) => `/admin/organisation/${ids.organisationId}/license/new` },
  {
    pattern: '/admin/organisation/:organisationId/license/:licenseId',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/license/${ids.licenceId}`,
  },
  { pattern: '/admin/organisation/:organisationId/user', roles: ADMINS, url: (ids) => `/admin/organisation/${ids.organisationId}/user` },
  { pattern: '/admin/organisation/:organisationId/user/new', roles: ADMINS, url: (ids) => `/admin/organisation/${ids.organisationId}/user/new` },
  {
    pattern: '/admin/organisation/:organisationId/user/:userId',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/user/${ids.learnerId}`,
  },
  {
    pattern: '/admin/organisation/:organisationId/activity',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/activity`,
  },
  {
    pattern: '/admin/organisation/:organisationId/notification',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/notification`,
  },
  { pattern: '/admin/organisation/:organisationId/lti', roles: ['sysadmin'], url: (ids) => `/admin/organisation/${ids.organisationId}/lti` },
  { pattern: '/admin/organisation/:organisationId/lti/new', roles: ['sysadmin'], url: (ids) => `/admin/organisation/${ids.organisationId}/lti/new` },
  {
    pattern: '/admin/organisation/:organisationId/lti/:platformId',
    roles: ['sysadmin'],
    url: (ids) => `/admin/organisation/${ids.organisationId}/lti/${ids.platformId}`,
  },
  { pattern: '/admin/product', roles: ['sysadmin'], url: () => '/admin/product' },
  { pattern: '/admin/product/:productId', roles: ['sysadmin'], url: (ids) => `/admin/product/${ids.productId}` },
  {
    pattern: '/admin/product/:productId/configuration/new',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}/configuration/new`,
  },
  {
    pattern: '/admin/product/:productId/configuration/:configurationId',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}/configuration/${ids.configurationId}`,
  },
  { pattern: '/admin/product/:productId/download', roles: ['sysadmin'], url: (ids) => `/admin/product/${ids.productId}/download` },
  { pattern: '/admin/product/:productId/download/new', roles: ['sysadmin'], url: (ids) => `/admin/product/${ids.productId}/download/new` },
  {
    pattern: '/admin/product/:productId/download/:downloadId',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}/download/${ids.downloadId}`,
  },
  { pattern: '/admin/notification', roles: ADMINS, url: () => '/admin/notification' },
];

const WITHOUT_PAGE: readonly RouteWithoutPage[] = [
  { pattern: '/', why: 'redirects to /simulation' },
  { pattern: '/auth/callback', why: 'the sign-in return: a spinner until it redirects' },
  { pattern: '/lti/launch', why: 'needs a learning-platform launch: accessibility.spec checks its pages' },
  { pattern: '/lti/simulation/*', why: 'the /simulation pages without the layout: accessibility.spec checks them from a launch' },
  { pattern: '/lti/simulation/launch', why: 'the /simulation/launch page without the layout: accessibility.spec checks it' },
  { pattern: '/lti/report/*', why: 'the /report pages without the layout, reached from a launch' },
  { pattern: '/simulation/*', why: 'the remote mount: its routes are listed one by one' },
  { pattern: '/report/*', why: 'the remote mount: its routes are listed one by one' },
  { pattern: '/admin/*', why: 'the remote mount: its routes are listed one by one' },
];

/** Every route pattern the apps declare, as full paths. */
function declaredPatterns(): string[] {
  const under = (mount: string, path: string) => (path ? `${mount}/${path}` : mount);
  return [
    ...Object.values(hostPaths).map((p) => p.path),
    '*',
    ...Object.values(simulationPaths)
      .filter((p): p is typeof p & { path: string } => 'path' in p)
      .map((p) => under(SIMULATION_MOUNTS.main, p.path)),
    ...Object.values(reportPaths).map((p) => under('/report', p.path)),
    // A product's own pages name their parent route; an organisation's take its id in
    // getHref(base, organisationId, …) and are declared relative to the organisation's route
    // (which itself names the id).
    ...Object.values(adminPaths).map((p) =>
      'parent' in p
        ? under(`/admin/${p.parent}`, p.path)
        : under(p.getHref.length >= 2 && !p.path.includes(':organisationId') && !p.path.includes(':productId') ? '/admin/organisation/:organisationId' : '/admin', p.path),
    ),
  ];
}

test('every declared route has an accessibility check or a reason why it has no page of its own', () => {
  const listed = new Set([...ROUTES.map((r) => r.pattern), ...WITHOUT_PAGE.map((r) => r.pattern)]);
  const missing = declaredPatterns().filter((pattern) => !listed.has(pattern));
  expect(missing, 'routes without an entry in axe-routes.spec.ts').toEqual([]);
});

const api = async <T>(page: Page, path: string): Promise<T> => {
  const response = await callApiAs(page, 'GET', path);
  expect(response.status(), `GET ${path}`).toBe(200);
  return (await response.json()) as T;
};

/** The learner's newest report, made through the simulator when the fresh stack has none. */
async function learnerReport(page: Page, context: BrowserContext): Promise<{ reportId: string; evidenceId: number }> {
  const list = async () =>
    (await api<{ results: { uuid: string }[] }>(page, '/api/v1/report?page=1&pageSize=1')).results[0];
  let report = await list();
  if (!report) {
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
    report = await list();
  }
  if (!report) throw new Error('no report for the learner');
  const detail = await api<{ evidence: { id: number }[] }>(page, `/api/v1/report/${report.uuid}`);
  const evidence = detail.evidence[0];
  if (!evidence) throw new Error('the report has no evidence');
  return { reportId: report.uuid, evidenceId: evidence.id };
}

async function signIn(browser: Browser, role: Role) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const portal = new PortalPage(page);
  await portal.signInAt('/support', ACCOUNTS[role]);
  const { sub } = demoAccount(ACCOUNTS[role]);
  return { context, page, sub };
}

/** Opens a route and waits for its content: the page heading, the requests settled, no skeleton. */
async function openRoute(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

interface Preference {
  language: string;
  skinTone: number | null;
}

for (const role of Object.keys(ACCOUNTS) as Role[]) {
  test(`axe on every route of the ${role}, desktop and phone, English and German`, async ({ browser }) => {
    const routes = ROUTES.filter((route) => route.roles.includes(role));
    test.setTimeout(60_000 + routes.length * 25_000);
    const { context, page, sub } = await signIn(browser, role);
    const preferencePath = `/api/v1/user/${sub}/preference`;
    const stored = await api<Preference>(page, preferencePath);
    const cookie = await api<{ allowEssentialCookies: boolean }>(page, `/api/v1/user/${sub}/cookie-preference`);
    // The cookie modal has its own checks (accessibility.spec); here it would cover every page.
    await setCookiePreference(page, sub, true);
    try {
      const ids: Ids = {
        userId: sub,
        learnerId: demoAccount('learner@demo.test').sub,
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
        const organisations = await api<{ results: { id: number; name: string }[] }>(page, '/api/v1/organisation?pageSize=100');
        ids.organisationId = organisations.results.find((o) => o.name === 'Demo Hospital')?.id ?? 0;
        const licences = await api<{ results: { id: number }[] }>(
          page,
          `/api/v1/organisation/${ids.organisationId}/license-block?pageSize=1`,
        );
        ids.licenceId = licences.results[0]?.id ?? 0;
      }
      if (role === 'sysadmin') {
        const configurations = await api<{ results: { id: number }[] }>(page, `/api/v1/product/${ids.productId}/configuration?pageSize=1`);
        ids.configurationId = configurations.results[0]?.id ?? 0;
        const downloads = await api<{ results: { id: number }[] }>(page, `/api/v1/product/${ids.productId}/simulation-download?pageSize=1`);
        ids.downloadId = downloads.results[0]?.id ?? 0;
        // The demo seed registers the learning-platform stand-in for Demo Hospital.
        const platforms = await api<{ results: { id: number }[] }>(page, `/api/v1/lti/platform?organisation=${ids.organisationId}&pageSize=1`);
        ids.platformId = platforms.results[0]?.id ?? 0;
      }
      if (REPORT_READERS.includes(role)) {
        const learner = role === 'learner' ? { page, context } : await signIn(browser, 'learner');
        Object.assign(ids, await learnerReport(learner.page, learner.context));
        if (learner.page !== page) await learner.context.close();
      }

      const failures: string[] = [];
      for (const language of LANGUAGES) {
        const put = await callApiAs(page, 'PUT', preferencePath, { ...stored, language });
        expect(put.status(), `PUT ${preferencePath}`).toBe(200);
        for (const route of routes) {
          const url = route.url(ids);
          await openRoute(page, url);
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          for (const size of WIDTHS) {
            await page.setViewportSize({ width: size.width, height: size.height });
            try {
              await expectNoAxeViolations(page, `${route.pattern} as ${role}, ${size.name}, ${language}`, WCAG22_AND_BEST_PRACTICE_TAGS);
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
