import type { PagedResult, SimulationDownload } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';

export const downloadsPath = (productId: number) =>
  `/api/v1/product/${encodeURIComponent(String(productId))}/simulation-download`;

/** GET /api/v1/product/{id}/simulation-download: one page of the product's installer versions. */
export const getDownloadsKey = (productId: number, params: PagedListParams) =>
  listPath(downloadsPath(productId), params);

export function useDownloads(productId: number, params: PagedListParams) {
  return useApi<PagedResult<SimulationDownload>>(getDownloadsKey(productId, params), {
    keepPreviousData: true,
  });
}
