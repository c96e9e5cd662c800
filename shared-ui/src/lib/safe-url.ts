// URLs that come from stored or API data (an admin-entered download URL, a signed file URL) end
// up in an href or a click; `javascript:`, `data:` or a look-alike origin there runs script on,
// or leaves from, the portal's origin. Only two kinds are let through.

/** The API's signed file route (docs/architecture.md, "Files are never served by id"). */
export const STORAGE_PATH = '/api/v1/storage/';

/**
 * `value` as a URL safe to link to or open: any `https:` address, or the portal's own storage
 * route on `storageOrigin` (the API's origin: the page's own while `apiBaseUrl` is ''). Returns
 * the URL as the browser would read it, so what is checked is what is used; null means "render
 * no link".
 */
export function safeHref(
  value: string | null | undefined,
  { storageOrigin = window.location.origin }: { storageOrigin?: string } = {},
): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value, `${window.location.origin}/`);
  } catch {
    return null;
  }
  // user:pass@ in a link only ever serves to make another host look like a trusted one.
  if (url.username || url.password) return null;
  if (url.protocol === 'https:') return url.href;
  const storage = url.origin === storageOrigin && url.pathname.startsWith(STORAGE_PATH);
  return storage ? url.href : null;
}
