import { CHECK_SESSION_INTERVAL_SECONDS, IDENTITY_MESSAGE_TIMEOUT_SECONDS } from '../constants';
import type { UserManagerLike } from './create-user-manager';

/**
 * OpenID Connect Session Management 1.0, the client side: every few seconds the signed-in tab asks
 * the identity provider's login-status iframe (`check_session_iframe`) about its `session_state`.
 * "changed" means the session at the provider ended or was replaced (a sign-out in another tab or
 * application): the portal's session ends too. oidc-client-ts has this (`monitorSession`), but it
 * would load the whole library in every signed-in tab, and it waits for an answer forever; this
 * needs no library and gives up on an answer after the identity message timeout.
 */

/** The hidden login-status iframe, as the monitor talks to it. */
export interface CheckSessionFrame {
  /** Sends one check; answers come to the monitor's `onAnswer`. */
  post(message: string): void;
  /** Loads the page again (after an unanswered check: the provider may have restarted). */
  reload(): void;
  remove(): void;
}

export type CreateCheckSessionFrame = (url: string, onAnswer: (answer: unknown) => void) => CheckSessionFrame;

export interface SessionMonitorOptions {
  checkSessionUrl: string;
  clientId: string;
  /**
   * The stored user's `session_state`, read at every check: another tab may have signed in
   * again since (new session, new state), and that is not a sign-out.
   */
  sessionState(): Promise<string | null | undefined>;
  /** The provider's session is over or is another one now. Called once; the monitor has stopped. */
  onChanged(): void;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  createFrame?: CreateCheckSessionFrame;
}

/** A hidden iframe of the provider's page, answering only from that page's window and origin. */
export const createIframe: CreateCheckSessionFrame = (url, onAnswer) => {
  const { origin, href } = new URL(url);
  const frame = document.createElement('iframe');
  // Out of sight and out of the tab order and the accessibility tree.
  frame.title = 'Sign-in status';
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  Object.assign(frame.style, { visibility: 'hidden', position: 'fixed', left: '-1000px', top: '0', width: '0', height: '0', border: '0' });
  frame.src = href;
  const listen = (event: MessageEvent) => {
    if (event.origin === origin && event.source === frame.contentWindow) onAnswer(event.data);
  };
  window.addEventListener('message', listen);
  document.body.appendChild(frame);
  return {
    post: (message) => frame.contentWindow?.postMessage(message, origin),
    reload: () => {
      frame.src = href;
    },
    remove: () => {
      window.removeEventListener('message', listen);
      frame.remove();
    },
  };
};

/** Starts checking; answers the function that stops it. */
export function startSessionMonitor({
  checkSessionUrl,
  clientId,
  sessionState,
  onChanged,
  intervalSeconds = CHECK_SESSION_INTERVAL_SECONDS,
  timeoutSeconds = IDENTITY_MESSAGE_TIMEOUT_SECONDS,
  createFrame = createIframe,
}: SessionMonitorOptions): () => void {
  let stopped = false;
  // The check waiting for its answer; one at a time, so a slow answer is not counted twice.
  let pending: { state: string; timer: ReturnType<typeof setTimeout> } | null = null;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(interval);
    if (pending) clearTimeout(pending.timer);
    pending = null;
    frame.remove();
  };

  async function confirmChange(sent: string) {
    const current = await sessionState().catch(() => null);
    if (stopped || (current && current !== sent)) return;
    stop();
    onChanged();
  }

  function onAnswer(answer: unknown) {
    if (!pending || stopped) return;
    const { state, timer } = pending;
    clearTimeout(timer);
    pending = null;
    if (answer === 'changed') void confirmChange(state);
    else if (answer === 'error') {
      // The provider cannot tell (third-party cookies blocked, unknown client): a failed token
      // refresh still ends the session, as before.
      console.warn('Session monitoring stopped: the identity provider cannot check this session');
      stop();
    }
  }

  const frame = createFrame(checkSessionUrl, onAnswer);

  async function check() {
    if (pending || stopped) return;
    const state = await sessionState().catch(() => null);
    if (!state || pending || stopped) return;
    const timer = setTimeout(() => {
      // No answer is no news: the user stays signed in, and the page is loaded afresh.
      pending = null;
      console.warn(`No answer from the identity provider's login-status check in ${timeoutSeconds} s`);
      frame.reload();
    }, timeoutSeconds * 1000);
    pending = { state, timer };
    frame.post(`${clientId} ${state}`);
  }

  const interval = setInterval(() => void check(), intervalSeconds * 1000);
  return stop;
}

export interface WatchSessionOptions {
  userManager: Pick<UserManagerLike, 'getUser' | 'metadataService'>;
  clientId: string;
  onChanged(): void;
  /** For tests: the monitor to start. */
  start?: typeof startSessionMonitor;
}

/**
 * Monitors the stored user's session if the provider publishes a `check_session_iframe` (ours
 * and Keycloak do); without one, the portal relies on a refused refresh, as before.
 */
export function watchSession({ userManager, clientId, onChanged, start = startSessionMonitor }: WatchSessionOptions): () => void {
  let stop: (() => void) | undefined;
  let cancelled = false;
  userManager.metadataService
    .getCheckSessionIframe()
    .then((checkSessionUrl) => {
      if (cancelled || !checkSessionUrl) return;
      stop = start({
        checkSessionUrl,
        clientId,
        sessionState: async () => (await userManager.getUser())?.session_state,
        onChanged,
      });
    })
    .catch((error: unknown) => console.warn('Session monitoring unavailable', error));
  return () => {
    cancelled = true;
    stop?.();
  };
}
