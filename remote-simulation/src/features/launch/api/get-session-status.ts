import { useCallback } from 'react';
import type { SessionStatus } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

/** Also the cache key, should anything else want the status through SWR. */
export const getSessionStatusKey = (productId: number, uuid: string) =>
  `/api/v1/product/${productId}/session/${encodeURIComponent(uuid)}/status`;

/**
 * A status fetcher for the launch screen's poll. Not an SWR hook: the poll's pace, its stop on
 * leaving the screen and its failure rule belong to the launch machine, not to SWR's revalidation.
 */
export function useGetSessionStatus() {
  const api = useApiClient();
  return useCallback(
    async (productId: number, uuid: string, signal?: AbortSignal): Promise<SessionStatus> => {
      const result = await api.get<SessionStatus>(getSessionStatusKey(productId, uuid), { signal });
      if (!result.isSuccess)
        throw new Error(`Unexpected session status answer: ${JSON.stringify(result.error)}`);
      return result.data;
    },
    [api],
  );
}
