// A sign-out happens only on purpose. Another site can link or redirect to /logout, but it cannot
// set this page's history state nor its session storage: both belong to the portal's origin.

/** Router state of the portal's own "Log out" links: reaching /logout with it signs out at once. */
export const LOGOUT_INTENT_STATE = { logoutIntent: true } as const;

export function hasLogoutIntent(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { logoutIntent?: unknown }).logoutIntent === true;
}

/** Set just before leaving for the identity provider, which sends the browser back to /logout. */
const PENDING_KEY = 'portal.logout-pending';
/** A sign-out round trip through the identity provider takes seconds; an old mark is stale. */
const PENDING_MAX_AGE_MS = 10 * 60_000;

export function markLogoutPending(storage: Storage = window.sessionStorage): void {
  try {
    storage.setItem(PENDING_KEY, String(Date.now()));
  } catch {
    // Storage off: the return from the identity provider then asks before leaving for Brightspace.
  }
}

/** Whether this visit is the return of our own sign-out; the mark is used up either way. */
export function takeLogoutPending(storage: Storage = window.sessionStorage): boolean {
  try {
    const since = Number(storage.getItem(PENDING_KEY));
    storage.removeItem(PENDING_KEY);
    return Number.isFinite(since) && since > 0 && Date.now() - since < PENDING_MAX_AGE_MS;
  } catch {
    return false;
  }
}
