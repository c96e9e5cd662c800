import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { useApiClient } from '@portal/shared-auth';

/**
 * DELETE /api/v1/user/{userId}/license-block/{licenseId}: frees the user's seat. Both sides of the
 * assignment are on screen somewhere (a licence's users and seat count, a user's licences), so
 * every cached admin read about users and licences is revalidated.
 */
export function useRemoveUserLicense() {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (userId: string, licenseId: number) => {
      const result = await client.del(
        `/api/v1/user/${encodeURIComponent(userId)}/license-block/${encodeURIComponent(String(licenseId))}`,
      );
      if (result.isSuccess) {
        void mutate((key) => typeof key === 'string' && /^\/api\/v1\/(user|organisation|lookup)/.test(key));
      }
      return result;
    },
    [client, mutate],
  );
}
