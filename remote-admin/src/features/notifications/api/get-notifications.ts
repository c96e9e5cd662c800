import type { Notification } from '@portal/contract';
import { useApi, withQuery } from '@portal/shared-auth';

export const NOTIFICATIONS_PATH = '/api/v1/notification';

/**
 * GET /api/v1/notification[?organisation={id}]: what needs an administrator's attention about
 * licences; without an organisation, all the user may see (every organisation's for global
 * administrators, their own organisation's for the others).
 */
export const getNotificationsKey = (organisation?: number) => withQuery(NOTIFICATIONS_PATH, { organisation });

export function useNotifications(organisation?: number) {
  return useApi<Notification[]>(getNotificationsKey(organisation));
}
