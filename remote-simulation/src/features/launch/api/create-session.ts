import { useCallback } from 'react';
import type { CreatedSession, CreateSessionBody } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export type CreateSessionInput = CreateSessionBody;

export const createSessionPath = (productId: number) => `/api/v1/product/${productId}/session`;

/** POST a new session; resolves the session (its token goes only into the launch link) or throws. */
export function useCreateSession() {
  const api = useApiClient();
  return useCallback(
    async (productId: number, input: CreateSessionInput): Promise<CreatedSession> => {
      const result = await api.post<CreatedSession>(createSessionPath(productId), input);
      if (!result.isSuccess)
        throw new Error(`Creating the session failed: ${JSON.stringify(result.error)}`);
      return result.data;
    },
    [api],
  );
}
