import { useCallback } from 'react';
import { useApiClient } from '@portal/shared-auth';

export const BRIGHTSPACE_AUTH_RESET_PATH = '/api/v1/user/brightspace-auth-reset';

/** POST without payload; the API answers 204. */
export function useResetBrightspaceAuth() {
  const api = useApiClient();
  return useCallback(() => api.post<unknown>(BRIGHTSPACE_AUTH_RESET_PATH, undefined, { successStatus: 204 }), [api]);
}
