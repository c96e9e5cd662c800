import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Organisation, OrganisationInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { getOrganisationKey } from './get-organisation';
import { ORGANISATIONS_PATH } from './get-organisations';

export type UpdateOrganisationInput = OrganisationInput;

/** PUT /api/v1/organisation/{id}; the saved organisation replaces the cached one. */
export function useUpdateOrganisation(id: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: UpdateOrganisationInput) => {
      const result = await client.put<Organisation>(getOrganisationKey(id), input);
      if (result.isSuccess) {
        await mutate(getOrganisationKey(id), result.data, { revalidate: false });
        void mutate(isListOf(ORGANISATIONS_PATH));
      }
      return result;
    },
    [client, mutate, id],
  );
}
