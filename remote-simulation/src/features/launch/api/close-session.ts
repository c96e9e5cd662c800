import { useCallback } from 'react';
import type { CloseSessionResult } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export const closeSessionPath = (productId: number, uuid: string) =>
  `/api/v1/product/${productId}/session/${encodeURIComponent(uuid)}/close`;

/** POST …/close (no payload); resolves what the session left behind, or throws. */
export function useCloseSession() {
  const api = useApiClient();
  return useCallback(
    async (productId: number, uuid: string): Promise<CloseSessionResult> => {
      // An action on an existing resource: 200 is as good an answer as 201.
      const result = await api.post<CloseSessionResult>(
        closeSessionPath(productId, uuid),
        undefined,
        {
          successStatus: [200, 201],
        },
      );
      if (!result.isSuccess)
        throw new Error(`Closing the session failed: ${JSON.stringify(result.error)}`);
      return result.data;
    },
    [api],
  );
}
