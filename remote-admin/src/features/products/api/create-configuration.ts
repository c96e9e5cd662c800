import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { ProductConfiguration, ProductConfigurationInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { configurationsPath } from './get-configurations';

/** POST /api/v1/product/{id}/configuration (201); the cached list pages are revalidated. */
export function useCreateConfiguration(productId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: ProductConfigurationInput) => {
      const result = await client.post<ProductConfiguration>(configurationsPath(productId), input);
      if (result.isSuccess) void mutate(isListOf(configurationsPath(productId)));
      return result;
    },
    [client, mutate, productId],
  );
}
