import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { ProductConfigurationSchema, ProductConfigurationSchemaInput } from '@portal/contract';
import { useApi, useApiClient } from '@portal/shared-auth';

/** GET/PUT /api/v1/product/{id}/configuration-schema. */
export const configurationSchemaPath = (productId: number) =>
  `/api/v1/product/${encodeURIComponent(String(productId))}/configuration-schema`;

export function useConfigurationSchema(productId: number, enabled: boolean) {
  return useApi<ProductConfigurationSchema>(enabled ? configurationSchemaPath(productId) : null);
}

/** Saves the schema; the stored one replaces the cached one. */
export function useUpdateConfigurationSchema(productId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: ProductConfigurationSchemaInput) => {
      const key = configurationSchemaPath(productId);
      const result = await client.put<ProductConfigurationSchema>(key, input);
      if (result.isSuccess) await mutate(key, result.data, { revalidate: false });
      return result;
    },
    [client, mutate, productId],
  );
}
