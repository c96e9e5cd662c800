import { paths } from '../config/paths';

// "Sign out and continue" (issue #22 point 1, the LTI mismatch screen): the sign-out goes through
// the identity provider, which always returns to /logout; from there the browser continues to
// the page that asked, instead of the learning platform's logout. Only pages on this allow-list
// may ask, so neither router state nor storage can make /logout an open redirect.
const CONTINUABLE_PATHNAMES: ReadonlySet<string> = new Set([paths.ltiLaunch.path]);

const STORAGE_KEY = 'portal.logout-continue';

/** `path` when it is a same-origin page of the allow-list, else null. */
export function continuablePath(path: unknown): string | null {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return null;
  try {
    const base = 'https://portal.invalid';
    const url = new URL(path, base);
    if (url.origin !== base || !CONTINUABLE_PATHNAMES.has(url.pathname)) return null;
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/** Router state for /logout: signs out on purpose (as the menu's link does), then continues to `path`. */
export function logoutAndContinueState(path: string) {
  return { logoutIntent: true, continueTo: path } as const;
}

/** The continuation the router state asks for, when allowed. */
export function continuationOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  return continuablePath((state as { continueTo?: unknown }).continueTo);
}

export function markContinuation(path: string, storage: Storage = window.sessionStorage): void {
  try {
    storage.setItem(STORAGE_KEY, path);
  } catch {
    // Storage off: the return from the identity provider then goes on as any sign-out does.
  }
}

/** The continuation marked before leaving for the identity provider; used up either way. */
export function takeContinuation(storage: Storage = window.sessionStorage): string | null {
  try {
    const path = storage.getItem(STORAGE_KEY);
    storage.removeItem(STORAGE_KEY);
    return continuablePath(path);
  } catch {
    return null;
  }
}
