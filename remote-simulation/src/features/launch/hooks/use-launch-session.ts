import { useCallback, useEffect, useReducer, useRef } from 'react';
import { isRetryable } from '@portal/shared-auth';
import { useNavigate, useProduct } from '@portal/shared-ui';
import type { LaunchRequest } from '../../../lib/launch-request';
import { useCloseSession } from '../api/close-session';
import { useCompleteSession } from '../api/complete-session';
import { useCreateSession } from '../api/create-session';
import { useGetSessionStatus } from '../api/get-session-status';
import {
  initialLaunchState,
  launchReducer,
  type LaunchEvent,
  type LaunchState,
} from '../launch-machine';
import type { LaunchLink, LaunchLinkSource } from '../launch-link';
import { openLaunchLink } from '../open-launch-link';

export interface LaunchSession {
  state: LaunchState;
  /** The learner has finished but the simulator did not say so: complete, then close. */
  finish: () => void;
}

export interface UseLaunchSessionOptions {
  request: LaunchRequest;
  lti: boolean;
  search: string;
  /** The runtime config and product records the launch link is built from. */
  link: LaunchLinkSource;
  /** How the link is opened; the page uses the real window. */
  open?: (link: LaunchLink) => void;
}

/**
 * Runs one launch: creates the session once, opens the link, watches for the app taking focus,
 * polls the status, closes the session and leaves for the report (or the error route).
 */
export function useLaunchSession({
  request,
  lti,
  search,
  link,
  open = openLaunchLink,
}: UseLaunchSessionOptions): LaunchSession {
  const { launch } = useProduct();
  const navigate = useNavigate();
  const createSession = useCreateSession();
  const getStatus = useGetSessionStatus();
  const closeSession = useCloseSession();
  const completeSession = useCompleteSession();
  const [state, dispatch] = useReducer(launchReducer, { lti, search, link }, initialLaunchState);

  // One session per visit: StrictMode runs effects twice and the second run must reuse the
  // first run's request instead of sending another.
  const creation = useRef<Promise<LaunchEvent> | null>(null);
  useEffect(() => {
    creation.current ??= createSession(request.productId, {
      configuration: request.configuration ?? '',
      ltiLaunchId: request.launchId,
      mode: request.mode,
      categoryId: request.categoryId,
    }).then(
      (session): LaunchEvent => ({ type: 'session_created', session }),
      (error: unknown): LaunchEvent => {
        console.error('Creating the simulation session failed', error);
        return { type: 'create_failed' };
      },
    );
    let active = true;
    void creation.current.then((event) => active && dispatch(event));
    return () => {
      active = false;
    };
    // The request is this visit's; a new visit is a new mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one request per visit, see above
  }, []);

  const uuid =
    state.phase === 'not_started' ||
    state.phase === 'in_progress' ||
    state.phase === 'completing' ||
    state.phase === 'closing'
      ? state.session.uuid
      : null;
  const launchLink = state.phase === 'not_started' ? state.launchLink : null;
  const awaitingLaunch = state.phase === 'not_started' && !state.launched;
  const polling = state.phase === 'not_started' || state.phase === 'in_progress';
  const closing = state.phase === 'closing';
  const completing = state.phase === 'completing';

  const openedFor = useRef<LaunchLink | null>(null);
  useEffect(() => {
    if (!launchLink || openedFor.current === launchLink) return;
    openedFor.current = launchLink;
    open(launchLink);
  }, [launchLink, open]);

  useEffect(() => {
    if (!awaitingLaunch) return;
    const onBlur = () => dispatch({ type: 'window_blurred' });
    window.addEventListener('blur', onBlur);
    const timer = window.setTimeout(
      () => dispatch({ type: 'launch_timed_out' }),
      launch.launchTimeoutMs,
    );
    return () => {
      window.removeEventListener('blur', onBlur);
      window.clearTimeout(timer);
    };
  }, [awaitingLaunch, launch.launchTimeoutMs]);

  useEffect(() => {
    if (!polling || !uuid) return;
    const controller = new AbortController();
    let timer: number | undefined;
    // One request at a time: the next poll is scheduled when the previous answer is in.
    const poll = () => {
      timer = window.setTimeout(async () => {
        try {
          const { status } = await getStatus(request.productId, uuid, controller.signal);
          if (controller.signal.aborted) return;
          dispatch({ type: 'status_received', status });
        } catch (error) {
          if (controller.signal.aborted) return;
          console.error('Fetching the session status failed', error);
          dispatch({ type: 'status_failed', retryable: isRetryable(error) });
        }
        poll();
      }, launch.statusPollMs);
    };
    poll();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [polling, uuid, getStatus, request.productId, launch.statusPollMs]);

  const completedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!completing || !uuid || completedFor.current === uuid) return;
    completedFor.current = uuid;
    completeSession(request.productId, uuid).then(
      () => dispatch({ type: 'session_completed' }),
      (error: unknown) => {
        console.error('Completing the simulation session failed', error);
        dispatch({ type: 'complete_failed' });
      },
    );
  }, [completing, uuid, completeSession, request.productId]);

  const closedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!closing || !uuid || closedFor.current === uuid) return;
    closedFor.current = uuid;
    closeSession(request.productId, uuid).then(
      (result) => dispatch({ type: 'session_closed', result }),
      (error: unknown) => {
        console.error('Closing the simulation session failed', error);
        dispatch({ type: 'close_failed' });
      },
    );
  }, [closing, uuid, closeSession, request.productId]);

  const redirectTo = state.phase === 'redirect' ? state.to : null;
  useEffect(() => {
    // Replace: Back must not return to the launch screen, which would start another session.
    if (redirectTo) void navigate(redirectTo, { replace: true });
  }, [redirectTo, navigate]);

  const finish = useCallback(() => dispatch({ type: 'finish_requested' }), []);
  return { state, finish };
}
