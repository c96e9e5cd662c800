// The launch link carries the session token, so whoever it points at can act as the learner in
// that session. It is built here and nowhere else, from trusted data only: the runtime config's
// simulator URL and the product record the API answers. The launch query may *choose* among the
// product's launch protocols (docs/requirements.md#data (Launch parameters)), but its text never
// goes into the link: anyone can write a query into a link and send it to a learner.
import type { CreatedSession, Product } from '@portal/contract';

/** A URL scheme as RFC 3986 spells it, lower case only: no tricks with case or white space. */
const SCHEME = /^[a-z][a-z0-9+.-]*$/;

/**
 * Schemes the browser handles itself (script, inline content, local files, other web sites). A
 * product record naming one of them is refused: the installed app has a scheme of its own.
 */
const BROWSER_SCHEMES: ReadonlySet<string> = new Set([
  'about',
  'blob',
  'data',
  'file',
  'filesystem',
  'ftp',
  'http',
  'https',
  'javascript',
  'mailto',
  'vbscript',
  'ws',
  'wss',
]);

export interface LaunchLinkSource {
  /** The browser simulator's base URL from the runtime config; null opens the installed app. */
  simulatorUrl: string | null;
  /** The product launched, as the API answered it: its launchProtocols are the schemes allowed. */
  product: Pick<Product, 'id' | 'protocol' | 'launchProtocols'>;
  /** The scheme the launch asks for (an LTI query's `protocol`); null = the product's own. */
  protocol: string | null;
}

export interface LaunchLink {
  readonly href: string;
  /** 'web': the browser simulator in a new tab; 'app': handed to the operating system. */
  readonly kind: 'web' | 'app';
}

type LaunchTarget = { kind: 'web'; base: string; origin: string } | { kind: 'app'; scheme: string };

/** Links this module built; openLaunchLink opens nothing else. */
const issued = new WeakSet<LaunchLink>();

function simulatorTarget(simulatorUrl: string): LaunchTarget | null {
  let url: URL;
  try {
    url = new URL(simulatorUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  // Origin and path only: an empty '?' or '#' left in the config must not swallow the token.
  return {
    kind: 'web',
    base: `${url.origin}${url.pathname}`.replace(/\/+$/, ''),
    origin: url.origin,
  };
}

/**
 * The product's allow-list entry the launch asks for: the requested scheme must equal one of the
 * product's launchProtocols (its own when none is asked for). null for anything else — another
 * product's scheme, a URL — so a launch that was altered on its way is refused rather than
 * silently corrected.
 */
function allowListEntry({ product, protocol }: LaunchLinkSource): string | null {
  const wanted = protocol ?? product.protocol;
  return product.launchProtocols.find((entry) => entry === wanted) ?? null;
}

function appTarget(scheme: string): LaunchTarget | null {
  return SCHEME.test(scheme) && !BROWSER_SCHEMES.has(scheme) ? { kind: 'app', scheme } : null;
}

function launchTarget(source: LaunchLinkSource): LaunchTarget | null {
  const entry = allowListEntry(source);
  // Checked with a browser simulator too: the query asked for something this product refuses.
  if (entry === null) return null;
  return source.simulatorUrl ? simulatorTarget(source.simulatorUrl) : appTarget(entry);
}

/**
 * Whether a launch link can be built for the product; asked before the session is created, so a
 * refused link never leaves an open session behind.
 */
export function canBuildLaunchLink(source: LaunchLinkSource): boolean {
  return launchTarget(source) !== null;
}

/**
 * The link that starts the simulation: the configured browser simulator with the token, or the
 * installed app through the product's allow-listed URL scheme with token and session. null when
 * the scheme or origin is not on the allow-list (the "problem starting simulation" page).
 */
export function buildLaunchLink(
  source: LaunchLinkSource,
  session: CreatedSession,
): LaunchLink | null {
  const target = launchTarget(source);
  if (!target) return null;
  const href =
    target.kind === 'web'
      ? `${target.base}/launch?${new URLSearchParams({ token: session.token })}`
      : `${target.scheme}://launch?${new URLSearchParams({ token: session.token, session: session.uuid })}`;
  // Checked once more as the browser will read it: the link must land where the target said.
  const parsed = new URL(href);
  const lands =
    target.kind === 'web'
      ? parsed.origin === target.origin
      : parsed.protocol === `${target.scheme}:` && parsed.hostname === 'launch';
  if (!lands) return null;
  const link: LaunchLink = Object.freeze({ href, kind: target.kind });
  issued.add(link);
  return link;
}

/** True only for a link buildLaunchLink returned, unchanged. */
export function isIssuedLaunchLink(link: unknown): link is LaunchLink {
  return typeof link === 'object' && link !== null && issued.has(link as LaunchLink);
}
