// The launch screen's flow (docs/requirements.md#simulation-session, #closing-a-session) as a pure
// reducer: the hook performs the calls and timers and reports what happened as events, so every
// status and every close outcome is decided here and tested without a browser.
import type { CloseSessionResult, CreatedSession, SessionStatusValue } from '@portal/contract';
import { paths } from '../../config/paths';
import { buildLaunchLink, type LaunchLink, type LaunchLinkSource } from './launch-link';

/** docs/requirements.md#limits-and-defaults: three retries; a status poll that still fails after them ends the screen. */
export const STATUS_RETRY_LIMIT = 3;

export interface LaunchContext {
  /** Under /lti: redirects get the /lti prefix and keep the launch query. */
  lti: boolean;
  /** The current query ('' or '?…'), kept for the LTI routes. */
  search: string;
  /** Trusted data only (runtime config and product records) the launch link is built from. */
  link: LaunchLinkSource;
}

/** 'link': the launch link was refused (scheme or origin not allowed). */
export type LaunchFailure = 'create' | 'link' | 'status' | 'complete' | 'close';

export type LaunchPhase =
  /** POST …/session is on its way. */
  | { phase: 'creating' }
  /**
   * The link has been opened; waiting for the simulator. `launched` turns true when the window
   * blurs (the app took focus): from then on the launch timeout no longer applies.
   */
  | {
      phase: 'not_started';
      session: CreatedSession;
      launchLink: LaunchLink;
      launched: boolean;
      statusFailures: number;
    }
  | {
      phase: 'in_progress';
      session: CreatedSession;
      launchLink: LaunchLink;
      statusFailures: number;
    }
  /**
   * The learner says the simulation is over while the simulator has not reported it (the app
   * crashed or was closed): POST …/complete is on its way, then the session is closed.
   */
  | { phase: 'completing'; session: CreatedSession }
  /** The simulator finished; POST …/close is on its way. */
  | { phase: 'closing'; session: CreatedSession }
  | { phase: 'failed'; failure: LaunchFailure }
  /** Leave the launch screen: to the report after closing, or to the error route on timeout. */
  | { phase: 'redirect'; to: string; reason: 'closed' | 'timeout' };

export type LaunchState = LaunchPhase & { context: LaunchContext };

export type LaunchEvent =
  | { type: 'session_created'; session: CreatedSession }
  | { type: 'create_failed' }
  | { type: 'window_blurred' }
  | { type: 'status_received'; status: SessionStatusValue }
  /** `retryable`: a network error or 5xx that may pass; a 4xx gives the same answer again. */
  | { type: 'status_failed'; retryable: boolean }
  | { type: 'launch_timed_out' }
  /** "I have finished" on the waiting screen. */
  | { type: 'finish_requested' }
  | { type: 'session_completed' }
  | { type: 'complete_failed' }
  | { type: 'session_closed'; result: CloseSessionResult }
  | { type: 'close_failed' };

export function initialLaunchState(context: LaunchContext): LaunchState {
  return { phase: 'creating', context };
}

/** docs/requirements.md#closing-a-session: where the user goes once the session is closed. */
export function closeRedirect(
  result: CloseSessionResult,
  sessionUuid: string,
  { lti, search }: Pick<LaunchContext, 'lti' | 'search'>,
): string {
  const query = lti ? search : '';
  if (result.hasReportDetails && result.hasSubmittedEvidence)
    return paths.report.getHref(sessionUuid, lti, query);
  if (result.hasReportDetails) return paths.noReport.getHref(lti, query);
  if (result.status === 'complete' || result.status === 'closed')
    return paths.reports.getHref(lti, query);
  return paths.noReport.getHref(lti, query);
}

/** The session error route ("simulation not installed"); LTI keeps its query. */
export function timeoutRedirect({ lti, search }: Pick<LaunchContext, 'lti' | 'search'>): string {
  return paths.launchError.getHref(lti, lti ? search : '');
}

function onStatus(state: LaunchState, status: SessionStatusValue): LaunchState {
  if (state.phase !== 'not_started' && state.phase !== 'in_progress') return state;
  const { context, session } = state;
  switch (status) {
    case 'complete':
    case 'closed':
      return { phase: 'closing', session, context };
    case 'in_progress':
      return {
        phase: 'in_progress',
        session,
        launchLink: state.launchLink,
        statusFailures: 0,
        context,
      };
    case 'not_started':
      // A session never goes back to not started; an in-progress screen stays as it is.
      return state.statusFailures === 0 ? state : { ...state, statusFailures: 0 };
  }
}

export function launchReducer(state: LaunchState, event: LaunchEvent): LaunchState {
  const { context } = state;
  switch (event.type) {
    case 'session_created': {
      if (state.phase !== 'creating') return state;
      const launchLink = buildLaunchLink(context.link, event.session);
      if (!launchLink) return { phase: 'failed', failure: 'link', context };
      return {
        phase: 'not_started',
        session: event.session,
        launchLink,
        launched: false,
        statusFailures: 0,
        context,
      };
    }
    case 'create_failed':
      return state.phase === 'creating' ? { phase: 'failed', failure: 'create', context } : state;
    case 'window_blurred':
      return state.phase === 'not_started' && !state.launched
        ? { ...state, launched: true }
        : state;
    case 'status_received':
      return onStatus(state, event.status);
    case 'status_failed': {
      if (state.phase !== 'not_started' && state.phase !== 'in_progress') return state;
      const statusFailures = state.statusFailures + 1;
      if (!event.retryable || statusFailures > STATUS_RETRY_LIMIT)
        return { phase: 'failed', failure: 'status', context };
      return { ...state, statusFailures };
    }
    case 'launch_timed_out':
      // Only a launch nobody noticed: no blur and the simulator never joined.
      return state.phase === 'not_started' && !state.launched
        ? { phase: 'redirect', to: timeoutRedirect(context), reason: 'timeout', context }
        : state;
    case 'finish_requested':
      return state.phase === 'in_progress' ? { phase: 'completing', session: state.session, context } : state;
    case 'session_completed':
      return state.phase === 'completing' ? { phase: 'closing', session: state.session, context } : state;
    case 'complete_failed':
      return state.phase === 'completing' ? { phase: 'failed', failure: 'complete', context } : state;
    case 'session_closed':
      return state.phase === 'closing'
        ? {
            phase: 'redirect',
            to: closeRedirect(event.result, state.session.uuid, context),
            reason: 'closed',
            context,
          }
        : state;
    case 'close_failed':
      return state.phase === 'closing' ? { phase: 'failed', failure: 'close', context } : state;
  }
}
