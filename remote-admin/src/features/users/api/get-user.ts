import type { AdminUser } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

/** GET /api/v1/user/{id}. */
export const getUserKey = (userId: string) => `/api/v1/user/${encodeURIComponent(userId)}`;

export function useUser(userId: string | null) {
  return useApi<AdminUser>(userId === null ? null : getUserKey(userId));
}
