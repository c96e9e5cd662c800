import { CHECK_SESSION_INTERVAL_SECONDS, IDENTITY_MESSAGE_TIMEOUT_SECONDS, SILENT_REQUEST_TIMEOUT_SECONDS } from '../../constants';
import { createIframe, startSessionMonitor, watchSession, type CheckSessionFrame } from '../session-monitor';

const URL_OF_IFRAME = 'http://idp.test/realms/main/protocol/openid-connect/login-status-iframe.html';

/** The login-status page as the monitor sees it: it records checks and answers when told to. */
function fakeProvider() {
  const posted: string[] = [];
  let answer: ((value: unknown) => void) | undefined;
  const frame: CheckSessionFrame = {
    post: jest.fn((message: string) => void posted.push(message)),
    reload: jest.fn(),
    remove: jest.fn(),
  };
  return {
    posted,
    frame,
    createFrame: jest.fn((_url: string, onAnswer: (value: unknown) => void) => {
      answer = onAnswer;
      return frame;
    }),
    answer: (value: unknown) => answer?.(value),
  };
}

/** Lets the monitor's awaited session-state reads settle. */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

async function advanceSeconds(seconds: number) {
  await jest.advanceTimersByTimeAsync(seconds * 1000);
  await settle();
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('the login-status check', () => {
  it('runs every 5 s and waits 10 s for an answer (docs/requirements.md#limits-and-defaults)', async () => {
    expect(CHECK_SESSION_INTERVAL_SECONDS).toBe(5);
    expect(IDENTITY_MESSAGE_TIMEOUT_SECONDS).toBe(10);
    expect(SILENT_REQUEST_TIMEOUT_SECONDS).toBe(IDENTITY_MESSAGE_TIMEOUT_SECONDS);
    const idp = fakeProvider();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const onChanged = jest.fn();
    const stop = startSessionMonitor({
      checkSessionUrl: URL_OF_IFRAME,
      clientId: 'frontend',
      sessionState: async () => 'state-1',
      onChanged,
      createFrame: idp.createFrame,
    });
    expect(idp.createFrame).toHaveBeenCalledWith(URL_OF_IFRAME, expect.any(Function));

    await advanceSeconds(4.9);
    expect(idp.posted).toEqual([]);
    await advanceSeconds(0.1);
    expect(idp.posted).toEqual(['frontend state-1']);
    idp.answer('unchanged');
    await advanceSeconds(5);
    expect(idp.posted).toHaveLength(2);

    // Unanswered: no second check while one waits, and after 10 s the page is loaded afresh.
    await advanceSeconds(9.9);
    expect(idp.posted).toHaveLength(2);
    expect(idp.frame.reload).not.toHaveBeenCalled();
    await advanceSeconds(0.1);
    expect(idp.frame.reload).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('10 s'));
    await advanceSeconds(5);
    expect(idp.posted).toHaveLength(3);
    expect(onChanged).not.toHaveBeenCalled();
    stop();
    expect(idp.frame.remove).toHaveBeenCalled();
    await advanceSeconds(20);
    expect(idp.posted).toHaveLength(3);
    warn.mockRestore();
  });

  it('ends the session once on "changed", and stops checking', async () => {
    const idp = fakeProvider();
    const onChanged = jest.fn();
    startSessionMonitor({ checkSessionUrl: URL_OF_IFRAME, clientId: 'frontend', sessionState: async () => 's', onChanged, createFrame: idp.createFrame });
    await advanceSeconds(CHECK_SESSION_INTERVAL_SECONDS);
    idp.answer('changed');
    await settle();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(idp.frame.remove).toHaveBeenCalled();
    idp.answer('changed');
    await advanceSeconds(30);
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(idp.posted).toHaveLength(1);
  });

  it('does not end a session another tab has just started anew (the stored state moved on)', async () => {
    const idp = fakeProvider();
    const onChanged = jest.fn();
    let state = 'old';
    startSessionMonitor({ checkSessionUrl: URL_OF_IFRAME, clientId: 'frontend', sessionState: async () => state, onChanged, createFrame: idp.createFrame });
    await advanceSeconds(CHECK_SESSION_INTERVAL_SECONDS);
    state = 'new';
    idp.answer('changed');
    await advanceSeconds(CHECK_SESSION_INTERVAL_SECONDS);
    expect(onChanged).not.toHaveBeenCalled();
    expect(idp.posted).toEqual(['frontend old', 'frontend new']);
  });

  it('stops on "error" (the provider cannot check: third-party cookies blocked) without signing out', async () => {
    const idp = fakeProvider();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const onChanged = jest.fn();
    startSessionMonitor({ checkSessionUrl: URL_OF_IFRAME, clientId: 'frontend', sessionState: async () => 's', onChanged, createFrame: idp.createFrame });
    await advanceSeconds(CHECK_SESSION_INTERVAL_SECONDS);
    idp.answer('error');
    await advanceSeconds(30);
    expect(onChanged).not.toHaveBeenCalled();
    expect(idp.posted).toHaveLength(1);
    expect(idp.frame.remove).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('sends nothing without a session_state (a provider that gives none)', async () => {
    const idp = fakeProvider();
    startSessionMonitor({ checkSessionUrl: URL_OF_IFRAME, clientId: 'frontend', sessionState: async () => null, onChanged: jest.fn(), createFrame: idp.createFrame });
    await advanceSeconds(30);
    expect(idp.posted).toEqual([]);
  });
});

describe('watchSession', () => {
  const user = { session_state: 'from-storage' };

  it('monitors with the discovery document\'s check_session_iframe and the stored user\'s state', async () => {
    const start = jest.fn(() => jest.fn());
    const userManager = { getUser: jest.fn(async () => user as never), metadataService: { getCheckSessionIframe: async () => URL_OF_IFRAME } };
    const stop = watchSession({ userManager, clientId: 'frontend', onChanged: jest.fn(), start });
    await settle();
    expect(start).toHaveBeenCalledWith(expect.objectContaining({ checkSessionUrl: URL_OF_IFRAME, clientId: 'frontend' }));
    const { sessionState } = (start.mock.calls[0] as unknown as [{ sessionState: () => Promise<string> }])[0];
    await expect(sessionState()).resolves.toBe('from-storage');
    stop();
    expect(start.mock.results[0]?.value).toHaveBeenCalled();
  });

  it('does nothing for a provider without check_session_iframe, or when stopped before discovery answers', async () => {
    const start = jest.fn(() => jest.fn());
    watchSession({ userManager: { getUser: async () => null, metadataService: { getCheckSessionIframe: async () => undefined } }, clientId: 'frontend', onChanged: jest.fn(), start });
    const stop = watchSession({ userManager: { getUser: async () => null, metadataService: { getCheckSessionIframe: async () => URL_OF_IFRAME } }, clientId: 'frontend', onChanged: jest.fn(), start });
    stop();
    await settle();
    expect(start).not.toHaveBeenCalled();
  });
});

describe('the hidden iframe', () => {
  it('is out of sight and of the tab order, and hears only its own page', () => {
    const onAnswer = jest.fn();
    const frame = createIframe(URL_OF_IFRAME, onAnswer);
    const element = document.querySelector('iframe');
    expect(element).toHaveAttribute('src', URL_OF_IFRAME);
    expect(element).toHaveAttribute('tabindex', '-1');
    expect(element).toHaveAttribute('aria-hidden', 'true');
    expect(element?.style.visibility).toBe('hidden');
    const own = element!.contentWindow!;
    window.dispatchEvent(new MessageEvent('message', { data: 'changed', origin: 'http://evil.test', source: own }));
    window.dispatchEvent(new MessageEvent('message', { data: 'changed', origin: 'http://idp.test', source: window }));
    expect(onAnswer).not.toHaveBeenCalled();
    window.dispatchEvent(new MessageEvent('message', { data: 'unchanged', origin: 'http://idp.test', source: own }));
    expect(onAnswer).toHaveBeenCalledWith('unchanged');
    frame.remove();
    expect(document.querySelector('iframe')).toBeNull();
  });
});
