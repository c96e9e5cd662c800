import { useCallback } from 'react';
import type { InvitationResult } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { getUserKey } from './get-user';

/**
 * POST /api/v1/user/{id}/invitation (202): the invited user's set-password e-mail goes out again.
 * A 400 says why not (signed in already, still being set up) as field errors.
 */
export function useResendInvitation(userId: string) {
  const client = useApiClient();
  return useCallback(
    () =>
      client.post<InvitationResult>(`${getUserKey(userId)}/invitation`, undefined, {
        successStatus: 202,
      }),
    [client, userId],
  );
}
