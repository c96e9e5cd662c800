import type { UserNotification } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const MY_NOTIFICATIONS_KEY = '/api/v1/notification/mine';

/** Often enough that new feedback shows within a minute, rare enough for a school of learners. */
export const NOTIFICATIONS_POLL_MS = 60_000;

/**
 * The signed-in user's notifications: loaded when shown, again every minute while the page is
 * visible (SWR pauses the interval on hidden tabs) and when the window regains focus.
 */
export function useMyNotifications(enabled: boolean) {
  return useApi<UserNotification[]>(enabled ? MY_NOTIFICATIONS_KEY : null, {
    refreshInterval: NOTIFICATIONS_POLL_MS,
    revalidateOnFocus: true,
  });
}
