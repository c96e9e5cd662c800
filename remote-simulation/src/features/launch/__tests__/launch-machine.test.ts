import type { CloseSessionResult, CreatedSession } from '@portal/contract';
import type { LaunchLinkSource } from '../launch-link';
import {
  closeRedirect,
  initialLaunchState,
  launchReducer,
  STATUS_RETRY_LIMIT,
  type LaunchContext,
  type LaunchEvent,
  type LaunchState,
} from '../launch-machine';

const session: CreatedSession = { token: 'tok en', uuid: '0b6f2c3e-8a41-4d5b-9c7e-2f1a3b4c5d6e' };
const radiography = { id: 1, protocol: 'vmc-radiography', launchProtocols: ['vmc-radiography'] };
const simulatorLink: LaunchLinkSource = {
  simulatorUrl: 'http://simulator.test/',
  product: radiography,
  protocol: null,
};
const portal: LaunchContext = { lti: false, search: '', link: simulatorLink };
const lti: LaunchContext = {
  ...portal,
  lti: true,
  search: '?launchId=L1&productId=1&configuration=x',
};

const run = (events: LaunchEvent[], context = portal): LaunchState =>
  events.reduce(launchReducer, initialLaunchState(context));

const created: LaunchEvent = { type: 'session_created', session };
const closed = (result: CloseSessionResult): LaunchEvent[] => [
  created,
  { type: 'status_received', status: 'complete' },
  { type: 'session_closed', result },
];

describe('the launch machine', () => {
  it('starts by creating the session', () => {
    expect(initialLaunchState(portal).phase).toBe('creating');
  });

  it('is not_started with the launch link once the session exists', () => {
    expect(run([created])).toMatchObject({
      phase: 'not_started',
      session,
      launchLink: { href: 'http://simulator.test/launch?token=tok+en', kind: 'web' },
      launched: false,
    });
  });

  it("opens the installed app through the product record's scheme when no simulator is configured", () => {
    const app = { ...portal, link: { ...simulatorLink, simulatorUrl: null } };
    expect(run([created], app)).toMatchObject({
      phase: 'not_started',
      launchLink: {
        href: `vmc-radiography://launch?token=tok+en&session=${session.uuid}`,
        kind: 'app',
      },
    });
  });

  it('fails with the link message instead of opening a link that is not allowed', () => {
    const hostile = { id: 1, protocol: 'javascript', launchProtocols: ['javascript'] };
    const context = {
      ...portal,
      link: { simulatorUrl: null, product: hostile, protocol: null },
    };
    expect(run([created], context)).toMatchObject({ phase: 'failed', failure: 'link' });
  });

  it('stays not_started while the status says so', () => {
    expect(run([created, { type: 'status_received', status: 'not_started' }]).phase).toBe(
      'not_started',
    );
  });

  it('moves to in_progress when the simulator joins, and does not fall back', () => {
    const state = run([
      created,
      { type: 'status_received', status: 'in_progress' },
      { type: 'status_received', status: 'not_started' },
    ]);
    expect(state.phase).toBe('in_progress');
  });

  it('closes the session when the status is complete, from either waiting phase', () => {
    expect(run([created, { type: 'status_received', status: 'complete' }]).phase).toBe('closing');
    expect(
      run([
        created,
        { type: 'status_received', status: 'in_progress' },
        { type: 'status_received', status: 'complete' },
      ]).phase,
    ).toBe('closing');
  });

  it('fails with the create message when the session cannot be created', () => {
    expect(run([{ type: 'create_failed' }])).toMatchObject({ phase: 'failed', failure: 'create' });
  });

  describe('the launch timeout', () => {
    it('sends the user to the session error route when nothing happened', () => {
      expect(run([created, { type: 'launch_timed_out' }])).toMatchObject({
        phase: 'redirect',
        to: '/simulation/launch/error',
        reason: 'timeout',
      });
    });

    it('keeps the LTI prefix and query on the error route', () => {
      expect(run([created, { type: 'launch_timed_out' }], lti)).toMatchObject({
        to: `/lti/simulation/launch/error${lti.search}`,
      });
    });

    it('no longer applies once the window has blurred', () => {
      const state = run([created, { type: 'window_blurred' }, { type: 'launch_timed_out' }]);
      expect(state).toMatchObject({ phase: 'not_started', launched: true });
    });

    it('no longer applies once the status has left not_started', () => {
      expect(
        run([
          created,
          { type: 'status_received', status: 'in_progress' },
          { type: 'launch_timed_out' },
        ]).phase,
      ).toBe('in_progress');
    });
  });

  describe('status fetch failures', () => {
    it('end the screen with the status message on an answer that will not change (4xx)', () => {
      expect(run([created, { type: 'status_failed', retryable: false }])).toMatchObject({
        phase: 'failed',
        failure: 'status',
      });
    });

    it(`are retried ${STATUS_RETRY_LIMIT} times in a row when they may pass, then end the screen`, () => {
      const failure: LaunchEvent = { type: 'status_failed', retryable: true };
      const retries = Array.from({ length: STATUS_RETRY_LIMIT }, () => failure);
      expect(run([created, ...retries]).phase).toBe('not_started');
      expect(run([created, ...retries, failure])).toMatchObject({
        phase: 'failed',
        failure: 'status',
      });
    });

    it('count again from zero after a good answer', () => {
      const failure: LaunchEvent = { type: 'status_failed', retryable: true };
      const retries = Array.from({ length: STATUS_RETRY_LIMIT }, () => failure);
      const state = run([
        created,
        ...retries,
        { type: 'status_received', status: 'in_progress' },
        ...retries,
      ]);
      expect(state.phase).toBe('in_progress');
    });
  });

  it('fails with the close message when closing fails', () => {
    expect(
      run([created, { type: 'status_received', status: 'complete' }, { type: 'close_failed' }]),
    ).toMatchObject({
      phase: 'failed',
      failure: 'close',
    });
  });

  describe('"I have finished"', () => {
    const inProgress: LaunchEvent[] = [created, { type: 'status_received', status: 'in_progress' }];

    it('completes, then closes the session while it is in progress', () => {
      expect(run([...inProgress, { type: 'finish_requested' }])).toMatchObject({ phase: 'completing', session });
      expect(run([...inProgress, { type: 'finish_requested' }, { type: 'session_completed' }])).toMatchObject({
        phase: 'closing',
        session,
      });
    });

    it('fails with the complete message when completing fails', () => {
      expect(run([...inProgress, { type: 'finish_requested' }, { type: 'complete_failed' }])).toMatchObject({
        phase: 'failed',
        failure: 'complete',
      });
    });

    it('means nothing before the simulator joined or once the session is closing', () => {
      const notStarted = run([created]);
      expect(launchReducer(notStarted, { type: 'finish_requested' })).toBe(notStarted);
      const closing = run([created, { type: 'status_received', status: 'complete' }]);
      expect(launchReducer(closing, { type: 'finish_requested' })).toBe(closing);
      expect(launchReducer(closing, { type: 'complete_failed' })).toBe(closing);
    });
  });

  it('ignores events that do not belong to the current phase', () => {
    const failed = run([{ type: 'create_failed' }]);
    expect(launchReducer(failed, { type: 'status_received', status: 'complete' })).toBe(failed);
    expect(launchReducer(failed, created)).toBe(failed);
  });
});

describe('closing a session (docs/requirements.md#closing-a-session)', () => {
  const cases: [string, CloseSessionResult, string, string][] = [
    [
      'report details and evidence go to the report',
      { hasReportDetails: true, hasSubmittedEvidence: true, status: 'closed' },
      `/report/${session.uuid}`,
      `/lti/report/${session.uuid}${lti.search}`,
    ],
    [
      'report details without evidence go to "no report"',
      { hasReportDetails: true, hasSubmittedEvidence: false, status: 'closed' },
      '/report/no-report',
      `/lti/report/no-report${lti.search}`,
    ],
    [
      'no report details and a complete session go to the reports',
      { hasReportDetails: false, hasSubmittedEvidence: true, status: 'complete' },
      '/report',
      `/lti/report${lti.search}`,
    ],
    [
      'no report details and a closed session go to the reports',
      { hasReportDetails: false, hasSubmittedEvidence: false, status: 'closed' },
      '/report',
      `/lti/report${lti.search}`,
    ],
    [
      'anything else goes to "no report"',
      { hasReportDetails: false, hasSubmittedEvidence: false, status: 'in_progress' },
      '/report/no-report',
      `/lti/report/no-report${lti.search}`,
    ],
  ];

  it.each(cases)('%s', (_name, result, portalPath, ltiPath) => {
    expect(closeRedirect(result, session.uuid, portal)).toBe(portalPath);
    expect(closeRedirect(result, session.uuid, lti)).toBe(ltiPath);
    expect(run(closed(result))).toMatchObject({
      phase: 'redirect',
      to: portalPath,
      reason: 'closed',
    });
    expect(run(closed(result), lti)).toMatchObject({ phase: 'redirect', to: ltiPath });
  });
});
