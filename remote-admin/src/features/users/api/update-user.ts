import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { AdminUser, AdminUserInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { organisationUsersPath } from './get-organisation-users';
import { getUserKey } from './get-user';

export type UpdateUserInput = AdminUserInput;

/** PUT /api/v1/user/{id}; the saved user replaces the cached one and the organisation's list is revalidated. */
export function useUpdateUser(userId: string) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: UpdateUserInput) => {
      const result = await client.put<AdminUser>(getUserKey(userId), input);
      if (result.isSuccess) {
        await mutate(getUserKey(userId), result.data, { revalidate: false });
        if (result.data.organisation !== null) void mutate(isListOf(organisationUsersPath(result.data.organisation)));
      }
      return result;
    },
    [client, mutate, userId],
  );
}
