import { useCallback } from 'react';
import type { SessionStatus } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export const completeSessionPath = (productId: number, uuid: string) =>
  `/api/v1/product/${productId}/session/${encodeURIComponent(uuid)}/complete`;

/** POST …/complete (no payload): the owner marks a session the simulator did not finish as complete. */
export function useCompleteSession() {
  const api = useApiClient();
  return useCallback(
    async (productId: number, uuid: string): Promise<SessionStatus> => {
      const result = await api.post<SessionStatus>(completeSessionPath(productId, uuid), undefined, {
        successStatus: [200, 201],
      });
      if (!result.isSuccess)
        throw new Error(`Completing the session failed: ${JSON.stringify(result.error)}`);
      return result.data;
    },
    [api],
  );
}
