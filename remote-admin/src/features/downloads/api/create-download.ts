import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { SimulationDownload, SimulationDownloadInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { downloadsPath } from './get-downloads';

/** POST /api/v1/product/{id}/simulation-download (201); the cached list pages are revalidated. */
export function useCreateDownload(productId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: SimulationDownloadInput) => {
      const result = await client.post<SimulationDownload>(downloadsPath(productId), input);
      if (result.isSuccess) void mutate(isListOf(downloadsPath(productId)));
      return result;
    },
    [client, mutate, productId],
  );
}
