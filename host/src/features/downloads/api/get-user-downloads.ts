import type { DownloadGroup } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getUserDownloadsKey = (userId: string) =>
  `/api/v1/user/${encodeURIComponent(userId)}/simulation-download`;

/** The active installer versions of the user's entitled products, one group per product. */
export function useUserDownloads(userId: string | undefined) {
  return useApi<DownloadGroup[]>(userId ? getUserDownloadsKey(userId) : null);
}
