import { paths as hostPaths } from '../../host/src/config/paths';
import {
  MOUNT_PATHS as SIMULATION_MOUNTS,
  paths as simulationPaths,
} from '../../remote-simulation/src/config/paths';
import { paths as reportPaths } from '../../remote-reports/src/config/paths';
import { paths as adminPaths } from '../../remote-admin/src/config/paths';
import type { DemoEmail } from './sign-in-page';

// Every route of the portal, with the roles that may open it and how to reach it: the table the
// accessibility suite sweeps. It is checked against the apps' own path tables, so a new route
// without an entry here fails that suite.

export type Role = 'learner' | 'educator' | 'orgadmin' | 'sysadmin';
export const ACCOUNTS: Record<Role, DemoEmail> = {
  learner: 'learner@demo.test',
  educator: 'educator@demo.test',
  orgadmin: 'orgadmin@demo.test',
  sysadmin: 'sysadmin@demo.test',
};
export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const LANGUAGES = ['en', 'de'] as const;

/** What a route needs to be opened: ids found through the API once per role. */
export interface Ids {
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

export interface RouteCheck {
  /** The route pattern as the apps declare it (mount path + remote path). */
  pattern: string;
  roles: readonly Role[];
  url: (ids: Ids) => string;
}

/** A pattern with no page of its own, and why. */
export interface RouteWithoutPage {
  pattern: string;
  why: string;
}

export const ALL: readonly Role[] = ['learner', 'educator', 'orgadmin', 'sysadmin'];
export const REPORT_READERS: readonly Role[] = ['learner', 'educator'];
export const ADMINS: readonly Role[] = ['orgadmin', 'sysadmin'];

export const ROUTES: readonly RouteCheck[] = [
  // Host pages.
  { pattern: '/support', roles: ALL, url: () => '/support' },
  { pattern: '/user/:userId/downloads', roles: ALL, url: (ids) => `/user/${ids.userId}/downloads` },
  {
    pattern: '/user/:userId/preference',
    roles: ALL,
    url: (ids) => `/user/${ids.userId}/preference`,
  },
  { pattern: '/under-construction', roles: ['learner'], url: () => '/under-construction' },
  { pattern: '/self-assessment', roles: ['learner'], url: () => '/self-assessment' },
  // Reached directly (not from the menu), it asks "Log out?" and waits for an answer.
  { pattern: '/logout', roles: ['learner'], url: () => '/logout' },
  {
    pattern: '/brightspace-user-mismatch',
    roles: ['learner'],
    url: () => '/brightspace-user-mismatch',
  },
  {
    pattern: '/brightspace-auth/error',
    roles: ['learner'],
    url: () => '/brightspace-auth/error?error=ACCESS_DENIED',
  },
  { pattern: '/lti/error', roles: ['learner'], url: () => '/lti/error' },
  // Without a token: its "not valid" message. email-change.spec checks the page with a real link.
  { pattern: '/confirm-email', roles: ['learner'], url: () => '/confirm-email' },
  // Without a launch: its error page. The picker itself needs a deep linking launch (lti-platform.spec).
  { pattern: '/lti/deep-link', roles: ['educator'], url: () => '/lti/deep-link' },
  { pattern: '*', roles: ['learner', 'sysadmin'], url: () => '/no-such-page' },
  // Simulations.
  { pattern: '/simulation', roles: ALL, url: () => '/simulation' },
  {
    pattern: '/simulation/:productId/*',
    roles: ['learner'],
    url: (ids) => `/simulation/${ids.productId}`,
  },
  { pattern: '/simulation/launch', roles: ['learner'], url: () => '/simulation/launch' },
  {
    pattern: '/simulation/launch/error',
    roles: ['learner'],
    url: () => '/simulation/launch/error',
  },
  // Reports.
  { pattern: '/report', roles: REPORT_READERS, url: () => '/report' },
  { pattern: '/report/learner', roles: ['educator'], url: () => '/report/learner' },
  { pattern: '/report/no-report', roles: ['learner'], url: () => '/report/no-report' },
  // Issue #23 point 4: cohort insight (educators) and a learner's own progress.
  { pattern: '/report/insight', roles: ['educator'], url: () => '/report/insight' },
  { pattern: '/report/progress', roles: ['learner'], url: () => '/report/progress' },
  { pattern: '/report/:reportId', roles: REPORT_READERS, url: (ids) => `/report/${ids.reportId}` },
  {
    pattern: '/report/:reportId/evidence/:evidenceId/analysis',
    roles: ['learner'],
    url: (ids) => `/report/${ids.reportId}/evidence/${ids.evidenceId}/analysis`,
  },
  // Administration.
  { pattern: '/admin/organisation', roles: ADMINS, url: () => '/admin/organisation' },
  { pattern: '/admin/organisation/new', roles: ['sysadmin'], url: () => '/admin/organisation/new' },
  {
    pattern: '/admin/organisation/:organisationId',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}`,
  },
  {
    pattern: '/admin/organisation/:organisationId/license',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/license`,
  },
  {
    pattern: '/admin/organisation/:organisationId/license/new',
    roles: ['sysadmin'],
    url: (ids) => `/admin/organisation/${ids.organisationId}/license/new`,
  },
  {
    pattern: '/admin/organisation/:organisationId/license/:licenseId',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/license/${ids.licenceId}`,
  },
  {
    pattern: '/admin/organisation/:organisationId/user',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/user`,
  },
  {
    pattern: '/admin/organisation/:organisationId/user/new',
    roles: ADMINS,
    url: (ids) => `/admin/organisation/${ids.organisationId}/user/new`,
  },
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
  {
    pattern: '/admin/organisation/:organisationId/lti',
    roles: ['sysadmin'],
    url: (ids) => `/admin/organisation/${ids.organisationId}/lti`,
  },
  {
    pattern: '/admin/organisation/:organisationId/lti/new',
    roles: ['sysadmin'],
    url: (ids) => `/admin/organisation/${ids.organisationId}/lti/new`,
  },
  {
    pattern: '/admin/organisation/:organisationId/lti/:platformId',
    roles: ['sysadmin'],
    url: (ids) => `/admin/organisation/${ids.organisationId}/lti/${ids.platformId}`,
  },
  { pattern: '/admin/product', roles: ['sysadmin'], url: () => '/admin/product' },
  {
    pattern: '/admin/product/:productId',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}`,
  },
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
  {
    pattern: '/admin/product/:productId/download',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}/download`,
  },
  {
    pattern: '/admin/product/:productId/download/new',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}/download/new`,
  },
  {
    pattern: '/admin/product/:productId/download/:downloadId',
    roles: ['sysadmin'],
    url: (ids) => `/admin/product/${ids.productId}/download/${ids.downloadId}`,
  },
  { pattern: '/admin/notification', roles: ADMINS, url: () => '/admin/notification' },
];

export const WITHOUT_PAGE: readonly RouteWithoutPage[] = [
  { pattern: '/', why: 'redirects to /simulation' },
  { pattern: '/auth/callback', why: 'the sign-in return: a spinner until it redirects' },
  {
    pattern: '/lti/auth/callback',
    why: "an embedded launch's sign-in return inside the platform's frame: the same spinner until it redirects",
  },
  {
    pattern: '/lti/launch',
    why: 'needs a learning-platform launch: the accessibility suite checks it without one',
  },
  {
    pattern: '/lti/simulation/*',
    why: 'the /simulation pages without the layout: the suite checks them from a launch',
  },
  {
    pattern: '/lti/simulation/launch',
    why: 'the /simulation/launch page without the layout: the suite checks it',
  },
  { pattern: '/lti/report/*', why: 'the /report pages without the layout, reached from a launch' },
  {
    pattern: '/lti/open',
    why: 'needs a new-window ticket from a blocked frame: lti-embedded.spec opens it, its component test runs axe',
  },
  { pattern: '/simulation/*', why: 'the remote mount: its routes are listed one by one' },
  { pattern: '/report/*', why: 'the remote mount: its routes are listed one by one' },
  { pattern: '/admin/*', why: 'the remote mount: its routes are listed one by one' },
];

/** Every route pattern the apps declare, as full paths. */
export function declaredPatterns(): string[] {
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
        : under(
            p.getHref.length >= 2 &&
              !p.path.includes(':organisationId') &&
              !p.path.includes(':productId')
              ? '/admin/organisation/:organisationId'
              : '/admin',
            p.path,
          ),
    ),
  ];
}
