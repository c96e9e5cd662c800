import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { LicenseBlock, LicenseBlockInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { getLicenseKey } from './get-license';
import { licensesPath } from './get-licenses';

export type UpdateLicenseInput = LicenseBlockInput;

/** PUT /api/v1/organisation/{id}/license-block/{licenseId}; the saved licence replaces the cached one. */
export function useUpdateLicense(organisationId: number, licenseId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: UpdateLicenseInput) => {
      const key = getLicenseKey(organisationId, licenseId);
      const result = await client.put<LicenseBlock>(key, input);
      if (result.isSuccess) {
        await mutate(key, result.data, { revalidate: false });
        void mutate(isListOf(licensesPath(organisationId)));
      }
      return result;
    },
    [client, mutate, organisationId, licenseId],
  );
}
