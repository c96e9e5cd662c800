import type { CookiePreference } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getCookiePreferenceKey = (userId: string) =>
  `/api/v1/user/${encodeURIComponent(userId)}/cookie-preference`;

/** docs/requirements.md#calls: only asked once the user id is known. */
export function useCookiePreference(userId: string | undefined) {
  return useApi<CookiePreference>(userId ? getCookiePreferenceKey(userId) : null);
}
