import { isIssuedLaunchLink, type LaunchLink } from './launch-link';

/** The parts of `window` the launch needs; tests hand in their own. */
export interface LaunchWindow {
  open(url: string, target: string, features: string): unknown;
  location: { assign(url: string): void };
}

/**
 * Opens the simulator. The browser simulator gets a new tab, so the portal stays open to follow
 * the session; an app URL scheme is handed to the operating system from this page (a new tab
 * would only be left blank). Anything buildLaunchLink did not produce is refused, so a future
 * caller cannot hand a link from elsewhere straight to location.assign.
 */
export function openLaunchLink(link: LaunchLink, win: LaunchWindow = window): void {
  if (!isIssuedLaunchLink(link))
    throw new Error('Refusing a launch link the portal did not build.');
  if (link.kind === 'web') win.open(link.href, '_blank', 'noopener');
  else win.location.assign(link.href);
}
