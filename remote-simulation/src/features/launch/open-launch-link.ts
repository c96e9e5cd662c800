/** The parts of `window` the launch needs; tests hand in their own. */
export interface LaunchWindow {
  open(url: string, target: string, features: string): unknown;
  location: { assign(url: string): void };
}

export const isWebLink = (link: string) => /^https?:\/\//i.test(link);

/**
 * Opens the simulator. The browser simulator gets a new tab, so the portal stays open to follow
 * the session; an app URL scheme is handed to the operating system from this page (a new tab
 * would only be left blank).
 */
export function openLaunchLink(link: string, win: LaunchWindow = window): void {
  if (isWebLink(link)) win.open(link, '_blank', 'noopener');
  else win.location.assign(link);
}
