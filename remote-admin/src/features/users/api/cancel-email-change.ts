import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { organisationUsersPath } from './get-organisation-users';
import { getUserKey } from './get-user';

/**
 * DELETE /api/v1/user/{id}/email-change (204): the pending e-mail change is withdrawn and its
 * link stops working. The user and the organisation's list are read again.
 */
export function useCancelEmailChange(userId: string, organisationId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    const result = await client.del(`${getUserKey(userId)}/email-change`);
    if (result.isSuccess) {
      void mutate(getUserKey(userId));
      void mutate(isListOf(organisationUsersPath(organisationId)));
    }
    return result;
  }, [client, mutate, userId, organisationId]);
}
