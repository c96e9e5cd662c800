import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { CloseSessionResult, CreateSessionBody, ProductList } from '@portal/contract';
import type { LaunchNavigationState } from '../../../lib/launch-request';
import {
  SESSION_TOKEN,
  SESSION_UUID,
  USER_ID,
  birthing,
  radiography,
} from '../../../testing/fixtures';
import { closeSession, completeSession, createSession, getProducts, sessionStatus } from '../../../testing/handlers';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';

const server = setupTestServer();

const launchState: LaunchNavigationState = {
  configuration: 'radiography.lower-limb.knee',
  mode: 'VR',
  productId: 1,
  categoryId: 12,
};
const portalEntry = { pathname: '/simulation/launch', state: launchState };
const ltiQuery = '?launchId=lti-42&configuration=radiography.upper-limb.wrist&productId=1';
const POLL_MS = 1_000;
const TIMEOUT_MS = 10_000;
const launch = { statusPollMs: POLL_MS, launchTimeoutMs: TIMEOUT_MS };
const reportDetailsAndEvidence: CloseSessionResult = {
  hasReportDetails: true,
  hasSubmittedEvidence: true,
  status: 'closed',
};

let open: jest.SpyInstance;

beforeEach(() => {
  jest.useFakeTimers();
  open = jest.spyOn(window, 'open').mockImplementation(() => null);
});

afterEach(() => {
  jest.useRealTimers();
  open.mockRestore();
});

/** Expected failures are logged; keep them out of the test output and check they were. */
function silenceConsoleError() {
  return jest.spyOn(console, 'error').mockImplementation(() => undefined);
}

/** The session exists and the link is open: the not_started screen. */
async function launched() {
  await screen.findByRole('link', { name: /^Open the simulator/ });
}

/** Lets the poll timer fire and its answer arrive. */
async function nextPoll() {
  await act(() => jest.advanceTimersByTimeAsync(POLL_MS));
}

function setup(
  statuses: Parameters<typeof sessionStatus>[0],
  close: CloseSessionResult | number = reportDetailsAndEvidence,
  products: ProductList | number = [radiography, birthing],
) {
  const sent: { productId: string; body: CreateSessionBody }[] = [];
  const closed: string[] = [];
  const status = sessionStatus(statuses);
  server.use(
    getProducts(products),
    createSession(sent),
    status.handler,
    closeSession(close, closed),
  );
  return { sent, closed, status };
}

/**
 * jsdom cannot navigate and reports every attempt (location.assign, a followed link) through
 * console.error as "Not implemented: navigation"; these are the URLs it was asked to go to.
 */
function navigationAttempts(logged: jest.SpyInstance): string[] {
  // The error comes from jsdom's realm, where `instanceof Error` does not hold.
  return logged.mock.calls.flatMap(([error]: unknown[]) => {
    const message = String((error as { message?: unknown } | null)?.message ?? error);
    return /Not implemented: navigation/.test(message) ? [message] : [];
  });
}

describe('the launch screen', () => {
  it('sends a visit without launch state back to the simulation cards', async () => {
    server.use(getProducts([radiography]));
    const { router } = renderRemote({ server, path: '/simulation/launch', launch });

    expect(await screen.findByRole('link', { name: 'Radiography' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/simulation');
  });

  it('shows "Problem starting simulation" when the leaf has no configuration, and creates no session', async () => {
    const { sent } = setup(['not_started']);
    renderRemote({
      server,
      path: { ...portalEntry, state: { ...launchState, configuration: null } },
      launch,
    });

    expect(
      await screen.findByRole('heading', { name: 'Problem starting simulation' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to simulations' })).toHaveAttribute(
      'href',
      '/simulation',
    );
    await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS));
    expect(sent).toEqual([]);
  });

  it('creates one session, opens the simulator once and offers the link (even under StrictMode)', async () => {
    const { sent } = setup(['not_started']);
    renderRemote({ server, path: portalEntry, launch, strict: true });

    // The browser simulator opens in a new tab, and the link says so.
    expect(await screen.findByRole('link', { name: 'Open the simulator (opens in a new tab)' })).toHaveAttribute(
      'href',
      `http://simulator.test/launch?token=${SESSION_TOKEN}`,
    );
    expect(screen.getByRole('heading', { name: 'Launching simulation' })).toBeInTheDocument();
    expect(screen.getByText('Your simulation is opening in VR mode.')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        productId: '1',
        body: {
          configuration: 'radiography.lower-limb.knee',
          ltiLaunchId: null,
          mode: 'VR',
          categoryId: 12,
        },
      },
    ]);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(
      `http://simulator.test/launch?token=${SESSION_TOKEN}`,
      '_blank',
      'noopener',
    );
  });

  it('builds the link from the product protocol when no browser simulator is configured', async () => {
    setup(['not_started']);
    // jsdom cannot follow an app URL scheme and says so.
    const logged = silenceConsoleError();
    renderRemote({ server, path: portalEntry, launch: { ...launch, simulatorUrl: null } });

    expect(await screen.findByRole('link', { name: 'Open the simulator' })).toHaveAttribute(
      'href',
      `vmc-radiography://launch?token=${SESSION_TOKEN}&session=${SESSION_UUID}`,
    );
    // An app scheme is handed over from this page, never through a new tab.
    expect(open).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('polls the status: in_progress shows the waiting screen, complete closes and opens the report', async () => {
    const { closed, status } = setup(['not_started', 'in_progress', 'in_progress', 'complete']);
    const { router } = renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();
    expect(status.calls.count).toBe(1);
    expect(screen.getByRole('heading', { name: 'Launching simulation' })).toBeInTheDocument();
    await nextPoll();
    expect(screen.getByRole('heading', { name: 'Simulation in progress' })).toBeInTheDocument();
    await nextPoll();
    expect(screen.getByRole('heading', { name: 'Simulation in progress' })).toBeInTheDocument();
    await nextPoll();

    expect(
      await screen.findByRole('heading', { name: `Other area: /report/${SESSION_UUID}` }),
    ).toBeInTheDocument();
    expect(closed).toEqual([SESSION_UUID]);
    expect(router.state.historyAction).toBe('REPLACE');
    // Polling stopped with the screen.
    const calls = status.calls.count;
    await act(() => jest.advanceTimersByTimeAsync(POLL_MS * 5));
    expect(status.calls.count).toBe(calls);
  });

  it.each<[string, string, CloseSessionResult]>([
    [
      'report details without evidence',
      '/report/no-report',
      { hasReportDetails: true, hasSubmittedEvidence: false, status: 'closed' },
    ],
    [
      'no report details, session complete',
      '/report',
      { hasReportDetails: false, hasSubmittedEvidence: false, status: 'complete' },
    ],
    [
      'no report details, session closed',
      '/report',
      { hasReportDetails: false, hasSubmittedEvidence: true, status: 'closed' },
    ],
    [
      'no report details, session not finished',
      '/report/no-report',
      { hasReportDetails: false, hasSubmittedEvidence: false, status: 'not_started' },
    ],
  ])('after closing with %s, goes to %s', async (_name, path, result) => {
    setup(['complete'], result);
    renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();
    expect(await screen.findByRole('heading', { name: `Other area: ${path}` })).toBeInTheDocument();
  });

  it('goes to "Simulation not installed" when neither a blur nor the simulator arrives in time', async () => {
    setup(['not_started']);
    const { router } = renderRemote({ server, path: portalEntry, launch });

    await launched();
    await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS - 1));
    expect(router.state.location.pathname).toBe('/simulation/launch');
    await act(() => jest.advanceTimersByTimeAsync(1));

    expect(
      await screen.findByRole('heading', { name: 'Simulation not installed' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/simulation/launch/error');
    expect(screen.getByText(/contact your administrator/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Downloads' })).toHaveAttribute(
      'href',
      `/user/${USER_ID}/downloads`,
    );
  });

  it('counts a window blur as a successful launch: no error after the timeout', async () => {
    setup(['not_started']);
    const { router } = renderRemote({ server, path: portalEntry, launch });

    await launched();
    fireEvent.blur(window);
    await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS * 2));

    expect(router.state.location.pathname).toBe('/simulation/launch');
    expect(screen.getByRole('heading', { name: 'Launching simulation' })).toBeInTheDocument();
  });

  it('says "Could not fetch the updated session status" when the status cannot be fetched', async () => {
    const { status } = setup([404]);
    const logged = silenceConsoleError();
    renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();

    expect(screen.getByRole('alert')).toHaveTextContent(
      'Could not fetch the updated session status. Please start over.',
    );
    await act(() => jest.advanceTimersByTimeAsync(POLL_MS * 5));
    expect(status.calls.count).toBe(1);
    expect(logged).toHaveBeenCalledWith('Fetching the session status failed', expect.any(Error));
    logged.mockRestore();
  });

  it('"I have finished" on the waiting screen completes the session, closes it and opens the report', async () => {
    const { closed } = setup(['in_progress']);
    const completed: string[] = [];
    server.use(completeSession('ok', completed));
    renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();
    expect(screen.getByRole('heading', { name: 'Simulation in progress' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'I have finished' }));

    expect(
      await screen.findByRole('heading', { name: `Other area: /report/${SESSION_UUID}` }),
    ).toBeInTheDocument();
    expect(completed).toEqual([SESSION_UUID]);
    expect(closed).toEqual([SESSION_UUID]);
  });

  it('says the session could not be completed when "I have finished" fails, and does not close it', async () => {
    const { closed } = setup(['in_progress']);
    server.use(completeSession(409));
    const logged = silenceConsoleError();
    renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();
    fireEvent.click(screen.getByRole('button', { name: 'I have finished' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not complete the session. Please start over.',
    );
    expect(closed).toEqual([]);
    expect(logged).toHaveBeenCalledWith('Completing the simulation session failed', expect.any(Error));
    logged.mockRestore();
  });

  it('says "Could not close the session" when closing fails', async () => {
    setup(['complete'], 500);
    const logged = silenceConsoleError();
    renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not close the session. Please start over.',
    );
    expect(logged).toHaveBeenCalledWith('Closing the simulation session failed', expect.any(Error));
    logged.mockRestore();
  });

  it("shows the problem page when the API refuses the query's configuration as not the product's", async () => {
    const sent: { productId: string; body: CreateSessionBody }[] = [];
    server.use(getProducts([radiography]), createSession(sent, 400));
    const logged = silenceConsoleError();
    renderRemote({
      server,
      path: '/lti/simulation/launch?launchId=x&productId=1&mode=Desktop&configuration=birthing.kneeling&protocol=vmc-radiography',
      launch,
    });

    expect(
      await screen.findByRole('heading', { name: 'Problem starting simulation' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Could not start the simulation session. Please start over.',
    );
    expect(sent.map(({ body }) => body.configuration)).toEqual(['birthing.kneeling']);
    expect(screen.queryByRole('link', { name: /^Open the simulator/ })).not.toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('says the session could not be started when creating it fails', async () => {
    server.use(getProducts([radiography]), createSession([], 500));
    const logged = silenceConsoleError();
    renderRemote({ server, path: portalEntry, launch });

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not start the simulation session. Please start over.',
    );
    expect(open).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledWith(
      'Creating the simulation session failed',
      expect.any(Error),
    );
    logged.mockRestore();
  });

  it('stops polling when the user leaves the screen', async () => {
    const { status } = setup(['not_started']);
    const { unmount } = renderRemote({ server, path: portalEntry, launch });

    await launched();
    await nextPoll();
    expect(status.calls.count).toBe(1);
    unmount();
    await act(() => jest.advanceTimersByTimeAsync(POLL_MS * 5));
    expect(status.calls.count).toBe(1);
  });

  describe('builds the launch link from trusted data only', () => {
    const xssQuery =
      '?launchId=x&productId=1&mode=Desktop&configuration=radiography.lower-limb.foot&protocol=javascript%3Aalert(document.domain)%2F%2F';
    const exfiltrationQuery =
      '?launchId=x&productId=1&mode=Desktop&configuration=radiography.lower-limb.foot&protocol=https%3A%2F%2Fattacker.example%2Fc%3Fx%3D';
    const appLink = `vmc-radiography://launch?token=${SESSION_TOKEN}&session=${SESSION_UUID}`;
    const queryNaming = (protocol: string) =>
      `?launchId=x&productId=1&mode=Desktop&configuration=radiography.lower-limb.foot&protocol=${protocol}`;

    it.each([
      ['a javascript: protocol', xssQuery, null],
      ['another origin as protocol', exfiltrationQuery, null],
      ['another origin as protocol', exfiltrationQuery, 'http://simulator.test'],
      ["another product's scheme", queryNaming('vmc-birthing'), null],
      ["another product's scheme", queryNaming('vmc-birthing'), 'http://simulator.test'],
    ])(
      'refuses %s in the LTI query with "Problem starting simulation" (simulator %s), and creates no session',
      async (_name, query, simulatorUrl) => {
        const { sent } = setup(['not_started']);
        const logged = silenceConsoleError();
        renderRemote({
          server,
          path: `/lti/simulation/launch${query}`,
          launch: { ...launch, simulatorUrl },
        });

        expect(
          await screen.findByRole('heading', { name: 'Problem starting simulation' }),
        ).toBeInTheDocument();
        expect(screen.getByRole('alert')).toHaveTextContent(
          'The launch link of this simulation is not allowed',
        );
        await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS));
        expect(sent).toEqual([]);
        expect(open).not.toHaveBeenCalled();
        expect(navigationAttempts(logged)).toEqual([]);
        expect(screen.queryByRole('link', { name: /^Open the simulator/ })).not.toBeInTheDocument();
        logged.mockRestore();
      },
    );

    it("launches when the LTI query names the product's own scheme, building the link from the record", async () => {
      const { sent } = setup(['not_started']);
      const logged = silenceConsoleError();
      renderRemote({
        server,
        path: '/lti/simulation/launch?launchId=x&productId=1&mode=Desktop&configuration=radiography.lower-limb.foot&protocol=vmc-radiography',
        launch: { ...launch, simulatorUrl: null },
      });

      expect(await screen.findByRole('link', { name: /^Open the simulator/ })).toHaveAttribute(
        'href',
        appLink,
      );
      expect(sent).toHaveLength(1);
      await waitFor(() => expect(navigationAttempts(logged)).toHaveLength(1));
      logged.mockRestore();
    });

    it("launches with an alternative scheme on the product's allow-list that the LTI query names", async () => {
      const { sent } = setup(['not_started']);
      const logged = silenceConsoleError();
      renderRemote({
        server,
        path: `/lti/simulation/launch${queryNaming('vmc-radiography-vr')}`,
        launch: { ...launch, simulatorUrl: null },
      });

      expect(await screen.findByRole('link', { name: /^Open the simulator/ })).toHaveAttribute(
        'href',
        `vmc-radiography-vr://launch?token=${SESSION_TOKEN}&session=${SESSION_UUID}`,
      );
      expect(sent).toHaveLength(1);
      logged.mockRestore();
    });

    it('ignores a protocol in the navigation state', async () => {
      setup(['not_started']);
      const logged = silenceConsoleError();
      renderRemote({
        server,
        path: {
          ...portalEntry,
          state: { ...launchState, protocol: 'javascript:alert(document.domain)//' },
        },
        launch: { ...launch, simulatorUrl: null },
      });

      expect(await screen.findByRole('link', { name: /^Open the simulator/ })).toHaveAttribute(
        'href',
        appLink,
      );
      logged.mockRestore();
    });

    it.each([
      ['javascript', 'javascript'],
      ['data', 'data'],
      ['an upper-case scheme', 'VMC-Radiography'],
      ['a web origin', 'https'],
    ])(
      'shows "Problem starting simulation" for a product record whose scheme is %s, and creates no session',
      async (_name, protocol) => {
        const { sent } = setup(['not_started'], reportDetailsAndEvidence, [
          { ...radiography, protocol, launchProtocols: [protocol] },
        ]);
        const logged = silenceConsoleError();
        renderRemote({
          server,
          path: `/lti/simulation/launch${xssQuery}`,
          launch: { ...launch, simulatorUrl: null },
        });

        expect(
          await screen.findByRole('heading', { name: 'Problem starting simulation' }),
        ).toBeInTheDocument();
        expect(screen.getByRole('alert')).toHaveTextContent(
          'The launch link of this simulation is not allowed',
        );
        await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS));
        expect(sent).toEqual([]);
        expect(open).not.toHaveBeenCalled();
        expect(navigationAttempts(logged)).toEqual([]);
        expect(screen.queryByRole('link', { name: /^Open the simulator/ })).not.toBeInTheDocument();
        logged.mockRestore();
      },
    );

    it('shows "Problem starting simulation" for a configured simulator that is not http(s)', async () => {
      const { sent } = setup(['not_started']);
      renderRemote({
        server,
        path: portalEntry,
        launch: { ...launch, simulatorUrl: 'javascript:alert(document.domain)//' },
      });

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The launch link of this simulation is not allowed',
      );
      await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS));
      expect(sent).toEqual([]);
      expect(open).not.toHaveBeenCalled();
    });

    it('shows "Problem starting simulation" for a product the user cannot see, and creates no session', async () => {
      const { sent } = setup(['not_started']);
      renderRemote({
        server,
        path: `/lti/simulation/launch${xssQuery.replace('productId=1', 'productId=99')}`,
        launch: { ...launch, simulatorUrl: null },
      });

      expect(
        await screen.findByRole('heading', { name: 'Problem starting simulation' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(
        'This simulation is not available to you.',
      );
      await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS));
      expect(sent).toEqual([]);
    });

    it('shows "Problem starting simulation" when the products cannot be loaded', async () => {
      const { sent } = setup(['not_started'], reportDetailsAndEvidence, 500);
      renderRemote({ server, path: portalEntry, launch });

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The simulations could not be loaded. Please start over.',
      );
      expect(sent).toEqual([]);
      expect(open).not.toHaveBeenCalled();
    });

    it('waits for the product records before creating the session', async () => {
      let release!: () => void;
      const answered = new Promise<void>((resolve) => (release = resolve));
      const { sent } = setup(['not_started']);
      server.use(
        http.get('/api/v1/product', async () => {
          await answered;
          return HttpResponse.json<ProductList>([radiography]);
        }),
      );
      renderRemote({ server, path: portalEntry, launch });

      expect(await screen.findByText('Preparing your session...')).toBeInTheDocument();
      await act(() => jest.advanceTimersByTimeAsync(POLL_MS));
      expect(sent).toEqual([]);
      release();
      await launched();
      expect(sent).toHaveLength(1);
    });
  });

  describe('under LTI', () => {
    it('launches from the query (Desktop by default) and keeps the query on the report route', async () => {
      const { sent } = setup(['in_progress', 'complete']);
      const { router } = renderRemote({
        server,
        path: `/lti/simulation/launch${ltiQuery}`,
        launch,
      });

      await launched();
      expect(sent).toEqual([
        {
          productId: '1',
          body: {
            configuration: 'radiography.upper-limb.wrist',
            ltiLaunchId: 'lti-42',
            mode: 'Desktop',
            categoryId: null,
          },
        },
      ]);
      await nextPoll();
      expect(screen.getByRole('heading', { name: 'Simulation in progress' })).toBeInTheDocument();
      await nextPoll();

      await screen.findByRole('heading', {
        name: `Other area: /lti/report/${SESSION_UUID}${ltiQuery}`,
      });
      expect(router.state.location.search).toBe(ltiQuery);
    });

    it('uses the mode the query names', async () => {
      const { sent } = setup(['not_started']);
      renderRemote({ server, path: `/lti/simulation/launch${ltiQuery}&mode=VR`, launch });

      await launched();
      expect(sent[0]?.body.mode).toBe('VR');
    });

    it('keeps the query on the "Simulation not installed" route', async () => {
      setup(['not_started']);
      const { router } = renderRemote({
        server,
        path: `/lti/simulation/launch${ltiQuery}`,
        launch,
      });

      await launched();
      await act(() => jest.advanceTimersByTimeAsync(TIMEOUT_MS));

      expect(
        await screen.findByRole('heading', { name: 'Simulation not installed' }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/lti/simulation/launch/error');
      expect(router.state.location.search).toBe(ltiQuery);
    });

    it('shows "Problem starting simulation" when the query has no configuration', async () => {
      renderRemote({
        server,
        path: '/lti/simulation/launch?launchId=lti-42&protocol=vmc-radiography&productId=1',
        launch,
      });

      expect(
        await screen.findByRole('heading', { name: 'Problem starting simulation' }),
      ).toBeInTheDocument();
      // The learning platform starts launches: no way back into the catalogue from here.
      expect(screen.queryByRole('link', { name: 'Back to simulations' })).not.toBeInTheDocument();
    });
  });
});

describe('the session error route', () => {
  it('links to the downloads of the signed-in user', async () => {
    renderRemote({ server, path: '/simulation/launch/error' });

    expect(
      await screen.findByRole('heading', { name: 'Simulation not installed' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Downloads' })).toHaveAttribute(
        'href',
        `/user/${USER_ID}/downloads`,
      ),
    );
  });
});
