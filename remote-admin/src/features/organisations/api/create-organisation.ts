import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Organisation, OrganisationInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { ORGANISATIONS_PATH } from './get-organisations';

export type CreateOrganisationInput = OrganisationInput;

/** POST /api/v1/organisation (201); the cached list pages are revalidated. */
export function useCreateOrganisation() {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: CreateOrganisationInput) => {
      const result = await client.post<Organisation>(ORGANISATIONS_PATH, input);
      if (result.isSuccess) void mutate(isListOf(ORGANISATIONS_PATH));
      return result;
    },
    [client, mutate],
  );
}
