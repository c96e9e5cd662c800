import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { LicenseBlock, LicenseBlockInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { licensesPath } from './get-licenses';

export type CreateLicenseInput = LicenseBlockInput;

/** POST /api/v1/organisation/{id}/license-block (201); the cached list pages are revalidated. */
export function useCreateLicense(organisationId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: CreateLicenseInput) => {
      const result = await client.post<LicenseBlock>(licensesPath(organisationId), input);
      if (result.isSuccess) void mutate(isListOf(licensesPath(organisationId)));
      return result;
    },
    [client, mutate, organisationId],
  );
}
