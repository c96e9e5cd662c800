import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { useApiClient } from '@portal/shared-auth';
import { getUserKey } from './get-user';

/**
 * DELETE /api/v1/user/{id} (204). A 400 carries the reasons (e.g. deleting oneself) as field
 * errors. The user's seats are freed too, so user and licence reads are revalidated.
 */
export function useDeleteUser() {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (userId: string) => {
      const result = await client.del(getUserKey(userId));
      if (result.isSuccess) {
        void mutate((key) => typeof key === 'string' && /^\/api\/v1\/(organisation|lookup)/.test(key));
      }
      return result;
    },
    [client, mutate],
  );
}
