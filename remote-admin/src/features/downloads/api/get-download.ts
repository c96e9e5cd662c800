import type { SimulationDownload } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { downloadsPath } from './get-downloads';

/** GET /api/v1/product/{id}/simulation-download/{downloadId}. */
export const getDownloadKey = (productId: number, downloadId: number) =>
  `${downloadsPath(productId)}/${encodeURIComponent(String(downloadId))}`;

export function useDownload(productId: number, downloadId: number) {
  return useApi<SimulationDownload>(getDownloadKey(productId, downloadId));
}
