import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { UserNotification } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { MY_NOTIFICATIONS_KEY } from './my-notifications';

/**
 * Marks one notification read: shown read at once, then stored, then the list is loaded again
 * (a failed call shows it unread once more). Only the list uses it, so it loads with the list.
 */
export function useMarkNotificationRead() {
  const api = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: number) => {
      const markRead = (list: UserNotification[] | undefined) =>
        list?.map((n) => (n.id === id ? { ...n, read: true } : n));
      await mutate<UserNotification[]>(MY_NOTIFICATIONS_KEY, markRead, { revalidate: false });
      try {
        await api.post<null>(`${MY_NOTIFICATIONS_KEY}/${id}/read`, undefined, { successStatus: 204 });
      } catch (error) {
        console.warn('Marking a notification read failed', error);
      }
      await mutate(MY_NOTIFICATIONS_KEY);
    },
    [api, mutate],
  );
}
