// The learning platforms that may frame the host's /lti/ pages and the identity provider's pages
// of a launch's brokered sign-in (issue #22 point 2), from the API's registrations: fetched at
// start, then again when older than a minute (with the API's ETag, so an unchanged list costs a
// 304), never on the request's path.

/** How long a fetched list stands before the next answer under /lti/ asks again. */
export const FRAME_ORIGINS_TTL_MS = 60_000;
/** After a failed fetch (e.g. the API still starting), how soon to try again. */
const RETRY_MS = 5_000;

/**
 * The API checks each origin's shape; the header is ours, so it is checked again here: https, or
 * http on a loopback host, scheme://host[:port] and nothing else.
 */
const FRAME_ORIGIN =
  /^(https:\/\/[a-z0-9.-]+|http:\/\/(localhost|127\.0\.0\.1|\[::1\]))(:[0-9]{1,5})?$/i;
export const isFrameOrigin = (value) => typeof value === 'string' && FRAME_ORIGIN.test(value);

/**
 * @param {{ apiUrl: string, ttlMs?: number, now?: () => number,
 *   fetchImpl?: typeof fetch, onError?: (error: unknown) => void }} options
 */
export function createLtiFrameAncestors({
  apiUrl,
  ttlMs = FRAME_ORIGINS_TTL_MS,
  now = Date.now,
  fetchImpl = fetch,
  onError = () => {},
}) {
  let origins = [];
  let etag = null;
  let nextAt = 0;
  let pending = null;

  async function load() {
    try {
      const res = await fetchImpl(`${apiUrl}/api/lti/frame-origins`, {
        headers: etag ? { 'if-none-match': etag } : {},
        signal: AbortSignal.timeout(5_000),
      });
      if (res.status !== 304) {
        if (!res.ok) throw new Error(`GET /api/lti/frame-origins answered ${res.status}`);
        const body = await res.json();
        origins = (Array.isArray(body?.origins) ? body.origins : []).filter(isFrameOrigin);
        etag = res.headers.get('etag');
      }
      nextAt = now() + ttlMs;
    } catch (error) {
      // The last list stands (none at start: the pages then refuse every frame, as before).
      nextAt = now() + Math.min(RETRY_MS, ttlMs);
      onError(error);
    }
  }

  return {
    /** Fetches now (one fetch at a time); resolves when the list is current or the fetch failed. */
    refresh() {
      pending ??= load().finally(() => {
        pending = null;
      });
      return pending;
    },
    /**
     * Refreshes now and then whenever the list is due (5 s after a failure, e.g. the API still
     * starting), on an unref'd timer: a platform's first embedded launch after a start must not
     * meet an empty list that only a request would have refreshed.
     */
    keepFresh() {
      const tick = () =>
        this.refresh().then(() => {
          setTimeout(tick, Math.max(1_000, nextAt - now())).unref?.();
        });
      return tick();
    },
    /** The frame-ancestors sources for this answer; a stale list is refreshed in the background. */
    directive() {
      if (now() >= nextAt) void this.refresh();
      return origins.length > 0 ? [...origins] : ["'none'"];
    },
  };
}
