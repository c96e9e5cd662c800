/**
 * Whether the portal may run at `pathname` inside a frame: only the LTI pages, which learning
 * platforms show in their iframe and which the host's server lets the registered platforms frame
 * (frame-ancestors); everywhere else the portal shows "page not found" in a frame.
 */
export function mayRunFramed(pathname: string): boolean {
  return pathname.startsWith('/lti/');
}

/** Where the pages a learning platform may frame sign in and return to (the host's server frames them alike). */
const FRAMED_CALLBACK_BASE = '/lti';

/**
 * The path prefix of the sign-in's return pages for a portal started at `pathname`: a page that
 * may run framed returns to `/lti/auth/callback` and checks its session at
 * `/lti/silent-check-sso.html`, which the same platforms may frame (frame-ancestors is checked
 * against every ancestor, so the root's `/auth/callback` — `'none'` — would end an embedded
 * launch's sign-in on the browser's error page). Every other page returns to the root's.
 */
export function signInCallbackBase(pathname: string): string {
  return mayRunFramed(pathname) ? FRAMED_CALLBACK_BASE : '';
}
