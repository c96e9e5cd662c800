import type {
  LtiLaunchBrowserStatus,
  LtiLaunchTicket,
  LtiLaunchTicketRedeemed,
} from '@portal/contract';

/**
 * The "Open in a new window" calls (issue #22 point 2). Plain fetch, not the signed-in API client:
 * the launch comes before any sign-in; what stands for the browser is the launch's cookie, the
 * launch page's frame key or the ticket. Same origin (the host proxies /api), with cookies, so
 * the launch's cookie travels and the redeemed one is kept.
 */
async function call<T>(path: string, init: RequestInit = {}): Promise<T | null> {
  try {
    const response = await fetch(new URL(path, window.location.href), {
      ...init,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      },
    });
    return response.ok ? ((await response.json()) as T) : null;
  } catch (error) {
    console.error(`${path} failed`, error);
    return null;
  }
}

const base = '/api/lti/launch-window';

/** Whether this browser holds the launch's cookie; null when the API could not say. */
export async function launchCookieArrived(launchId: string): Promise<boolean | null> {
  const status = await call<LtiLaunchBrowserStatus>(`${base}/${encodeURIComponent(launchId)}`);
  return status?.cookie ?? null;
}

export function requestLaunchTicket(launchId: string, frameKey: string) {
  return call<LtiLaunchTicket>(`${base}/${encodeURIComponent(launchId)}/ticket`, {
    method: 'POST',
    body: JSON.stringify({ frameKey }),
  });
}

export function redeemLaunchTicket(ticket: string) {
  return call<LtiLaunchTicketRedeemed>(`${base}/redeem`, {
    method: 'POST',
    body: JSON.stringify({ ticket }),
  });
}
