import type { UserPreference } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getPreferenceKey = (userId: string) => `/api/v1/user/${encodeURIComponent(userId)}/preference`;

export function usePreference(userId: string | undefined) {
  return useApi<UserPreference>(userId ? getPreferenceKey(userId) : null);
}
