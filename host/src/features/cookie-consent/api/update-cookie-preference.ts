import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { CookiePreference } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { getCookiePreferenceKey } from './get-cookie-preference';

/** PUT the choice. Resolves true when saved; a failure (rejected or not 200) resolves false. */
export function useUpdateCookiePreference(userId: string) {
  const api = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (allowEssentialCookies: boolean): Promise<boolean> => {
      const key = getCookiePreferenceKey(userId);
      try {
        const result = await api.put<CookiePreference>(key, { allowEssentialCookies } satisfies CookiePreference);
        if (!result.isSuccess) return false;
        await mutate(key, result.data, { revalidate: false });
        return true;
      } catch (error) {
        console.error('Saving the cookie preference failed', error);
        return false;
      }
    },
    [api, mutate, userId],
  );
}
