import { EMAIL_CHANGE_CONFIRM_PATH } from '@portal/contract';
import { REMOTES } from '@portal/contract/remotes';

const { simulation, reports, admin } = REMOTES;
/** A remote's area: its routes below the mount (contract/src/remotes.json), linked at `href`. */
const remoteArea = (mount: string, href = mount) => ({ path: `${mount}/*`, getHref: () => href });

// Every route path of the host, with the one way to build each link. Components never
// string-build URLs.
export const paths = {
  home: { path: '/', getHref: () => '/' },
  authCallback: { path: '/auth/callback', getHref: () => '/auth/callback' },
  /** The sign-in's return page of the pages a learning platform frames (signInCallbackBase). */
  ltiAuthCallback: { path: '/lti/auth/callback', getHref: () => '/lti/auth/callback' },
  logout: { path: '/logout', getHref: () => '/logout' },
  ltiLaunch: { path: '/lti/launch', getHref: () => '/lti/launch' },
  ltiDeepLink: { path: '/lti/deep-link', getHref: () => '/lti/deep-link' },
  ltiOpenWindow: { path: '/lti/open', getHref: () => '/lti/open' },
  ltiSimulation: remoteArea(simulation.ltiMount),
  ltiSimulationLaunch: {
    path: `${simulation.ltiMount}/launch`,
    getHref: () => `${simulation.ltiMount}/launch`,
  },
  ltiReport: remoteArea(reports.ltiMount),
  ltiError: {
    path: '/lti/error',
    getHref: (error?: string) => (error ? `/lti/error?${new URLSearchParams({ error })}` : '/lti/error'),
  },
  simulation: remoteArea(simulation.mount),
  report: remoteArea(reports.mount),
  admin: remoteArea(admin.mount, `${admin.mount}/organisation`),
  support: { path: '/support', getHref: () => '/support' },
  downloads: {
    path: '/user/:userId/downloads',
    getHref: (userId: string) => `/user/${encodeURIComponent(userId)}/downloads`,
  },
  preference: {
    path: '/user/:userId/preference',
    getHref: (userId: string) => `/user/${encodeURIComponent(userId)}/preference`,
  },
  underConstruction: { path: '/under-construction', getHref: () => '/under-construction' },
  selfAssessment: { path: '/self-assessment', getHref: () => '/self-assessment' },
  brightspaceUserMismatch: { path: '/brightspace-user-mismatch', getHref: () => '/brightspace-user-mismatch' },
  /** The link of an e-mail change's confirmation mail (the token in the fragment). */
  confirmEmail: { path: EMAIL_CHANGE_CONFIRM_PATH, getHref: () => EMAIL_CHANGE_CONFIRM_PATH },
  /** Where the API's Brightspace sign-in ends when it fails (`?error=`). */
  brightspaceAuthError: { path: '/brightspace-auth/error', getHref: () => '/brightspace-auth/error' },
} as const;

/** One report (the session's uuid), a page of the reports remote's area. */
export function reportHref(reportId: string): string {
  return `${reports.mount}/${encodeURIComponent(reportId)}`;
}

/** The identity provider's device login page (realm based, Keycloak's path), in the user's language. */
export function deviceLoginHref(authority: string, language: string | undefined): string {
  return `${authority.replace(/\/$/, '')}/device?${new URLSearchParams({ kc_locale: language || 'en' })}`;
}

/** The learning platform's home, opened in a new tab for self-assessment. */
export function brightspaceHomeHref(brightspaceHost: string): string {
  return `${brightspaceHost.replace(/\/$/, '')}/d2l/home`;
}

/** The learning platform's sign-out page, where a signed-out portal user is sent on. */
export function brightspaceLogoutHref(brightspaceHost: string): string {
  return `${brightspaceHost.replace(/\/$/, '')}/d2l/logout`;
}
