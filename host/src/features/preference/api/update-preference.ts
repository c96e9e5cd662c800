import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { UserPreference } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { getPreferenceKey } from './get-preference';

export type UpdatePreferenceInput = UserPreference;

/** PUT the preference; on success the cached preference is replaced with the server's answer. */
export function useUpdatePreference(userId: string) {
  const api = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: UpdatePreferenceInput) => {
      const key = getPreferenceKey(userId);
      const result = await api.put<UserPreference>(key, input);
      if (result.isSuccess) await mutate(key, result.data, { revalidate: false });
      return result;
    },
    [api, mutate, userId],
  );
}
