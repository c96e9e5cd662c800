import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { ProductConfiguration, ProductConfigurationInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { getConfigurationKey } from './get-configuration';
import { configurationsPath } from './get-configurations';

/** PUT /api/v1/product/{id}/configuration/{configurationId}; the saved one replaces the cached one. */
export function useUpdateConfiguration(productId: number, configurationId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: ProductConfigurationInput) => {
      const key = getConfigurationKey(productId, configurationId);
      const result = await client.put<ProductConfiguration>(key, input);
      if (result.isSuccess) {
        await mutate(key, result.data, { revalidate: false });
        void mutate(isListOf(configurationsPath(productId)));
      }
      return result;
    },
    [client, mutate, productId, configurationId],
  );
}
