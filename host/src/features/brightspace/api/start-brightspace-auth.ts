import { useCallback } from 'react';
import type { BrightspaceAuthStart, BrightspaceAuthStartResponse } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export const BRIGHTSPACE_AUTH_START_PATH = '/api/v1/user/brightspace-auth';

/**
 * Starts the Brightspace sign-in for the signed-in user. A full-page navigation carries no
 * bearer token, so this authenticated call comes first: the API binds a one-time state to the
 * user, the path and this browser (a cookie), and answers the URL to navigate to.
 */
export function useStartBrightspaceAuth() {
  const api = useApiClient();
  return useCallback(
    async (redirectPath: string): Promise<string> => {
      const body: BrightspaceAuthStart = { redirectPath };
      const result = await api.post<BrightspaceAuthStartResponse>(BRIGHTSPACE_AUTH_START_PATH, body, {
        successStatus: 200,
      });
      if (!result.isSuccess) throw new Error('The Brightspace sign-in could not be started');
      return result.data.url;
    },
    [api],
  );
}
