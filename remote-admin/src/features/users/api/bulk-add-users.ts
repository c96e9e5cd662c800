import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { BulkUserErrors, BulkUserInput, BulkUserResult } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export type BulkAddUsersInput = BulkUserInput;

/**
 * POST /api/v1/user: every row of an uploaded CSV becomes a user of the licence's organisation,
 * all or none. A 400 lists the bad rows under `rows`. Seats and lists change, so they are revalidated.
 */
export function useBulkAddUsers() {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: BulkAddUsersInput) => {
      const result = await client.post<BulkUserResult, BulkUserErrors>('/api/v1/user', input);
      if (result.isSuccess) {
        void mutate((key) => typeof key === 'string' && /^\/api\/v1\/(organisation|lookup)/.test(key));
      }
      return result;
    },
    [client, mutate],
  );
}
