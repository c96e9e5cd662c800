// Every route of this remote and every portal page it links to, with the one way to build each
// link. `path` is relative to the mount point (the host mounts the remote's routes under
// /simulation and /lti/simulation); `getHref` gives the absolute URL. Components never string-build URLs.

import { REMOTES } from '@portal/contract/remotes';

const { simulation, reports } = REMOTES;

/** Where the host mounts the remote; the LTI mount mirrors the normal one without the layout. */
export const MOUNT_PATHS = { main: simulation.mount, lti: simulation.ltiMount } as const;

/** True on the learning-platform (LTI) mirror of the simulation routes. */
export function isLtiPath(pathname: string): boolean {
  return pathname === MOUNT_PATHS.lti || pathname.startsWith(`${MOUNT_PATHS.lti}/`);
}

const base = (lti: boolean) => (lti ? MOUNT_PATHS.lti : MOUNT_PATHS.main);
/** The reports remote, where the launch screen hands over; under LTI its bare mount. */
const reportsBase = (lti: boolean) => (lti ? reports.ltiMount : reports.mount);
/** `search` as given by useLocation(): '' or starting with '?'. */
const withSearch = (path: string, search = '') =>
  search && search !== '?' ? `${path}${search}` : path;

export const paths = {
  products: {
    path: '',
    getHref: (lti = false) => base(lti),
  },
  /** `/simulation/{productId}/{categoryId}/{categoryId}…`: the splat is the category path. */
  category: {
    path: ':productId/*',
    getHref: (productId: number, categoryIds: readonly number[] = [], lti = false) =>
      [base(lti), productId, ...categoryIds].join('/'),
  },
  launch: {
    path: 'launch',
    getHref: (lti = false, search = '') => withSearch(`${base(lti)}/launch`, search),
  },
  /** The "simulation not installed" page; under LTI the launch query is kept. */
  launchError: {
    path: 'launch/error',
    getHref: (lti = false, search = '') => withSearch(`${base(lti)}/launch/error`, search),
  },
  // Pages of the reports remote the launch screen hands over to (docs/requirements.md#closing-a-session).
  report: {
    getHref: (reportId: string, lti = false, search = '') =>
      withSearch(`${reportsBase(lti)}/${encodeURIComponent(reportId)}`, search),
  },
  reports: {
    getHref: (lti = false, search = '') => withSearch(reportsBase(lti), search),
  },
  noReport: {
    getHref: (lti = false, search = '') =>
      withSearch(`${reportsBase(lti)}/no-report`, search),
  },
  // A page of the host.
  downloads: {
    getHref: (userId: string) => `/user/${encodeURIComponent(userId)}/downloads`,
  },
} as const;
