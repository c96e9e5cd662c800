import { useCallback } from 'react';
import type { FileDownload } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export const getInstallerFilePath = (fileId: string) =>
  `/api/v1/file/${encodeURIComponent(fileId)}/download/sim-installation-file`;

/**
 * Asks for a fresh signed URL of an installer. Not cached in SWR on purpose: the URL expires
 * within minutes, so each click needs its own.
 */
export function useGetInstallerFile() {
  const api = useApiClient();
  return useCallback(
    (fileId: string) => api.get<FileDownload>(getInstallerFilePath(fileId)),
    [api],
  );
}
