import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { MarkingSchemeBody } from '@portal/contract';
import { useApi, useApiClient } from '@portal/shared-auth';

/** GET/PUT /api/v1/product/{id}/configuration/{configurationId}/marking-scheme (issue #23). */
export const markingSchemePath = (productId: number, configurationId: number) =>
  `/api/v1/product/${encodeURIComponent(String(productId))}/configuration/${encodeURIComponent(String(configurationId))}/marking-scheme`;

export function useMarkingScheme(productId: number, configurationId: number) {
  return useApi<MarkingSchemeBody>(markingSchemePath(productId, configurationId));
}

/** Saves the scheme (null: the configuration's images are no longer marked). */
export function useSaveMarkingScheme(productId: number, configurationId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (body: MarkingSchemeBody) => {
      const key = markingSchemePath(productId, configurationId);
      const result = await client.put<MarkingSchemeBody>(key, body);
      if (result.isSuccess) await mutate(key, result.data, { revalidate: false });
      return result;
    },
    [client, mutate, productId, configurationId],
  );
}
