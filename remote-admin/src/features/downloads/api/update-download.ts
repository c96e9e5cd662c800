import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { SimulationDownload, SimulationDownloadInput } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { isListOf } from '../../../lib/list-query';
import { getDownloadKey } from './get-download';
import { downloadsPath } from './get-downloads';

/** PUT /api/v1/product/{id}/simulation-download/{downloadId}; the saved one replaces the cached one. */
export function useUpdateDownload(productId: number, downloadId: number) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: SimulationDownloadInput) => {
      const key = getDownloadKey(productId, downloadId);
      const result = await client.put<SimulationDownload>(key, input);
      if (result.isSuccess) {
        await mutate(key, result.data, { revalidate: false });
        void mutate(isListOf(downloadsPath(productId)));
      }
      return result;
    },
    [client, mutate, productId, downloadId],
  );
}
