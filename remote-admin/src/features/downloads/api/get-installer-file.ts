import { useCallback } from 'react';
import type { FileDownload } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

export const getInstallerFilePath = (fileId: string) =>
  `/api/v1/file/${encodeURIComponent(fileId)}/download/sim-installation-file`;

/**
 * GET /api/v1/file/{id}/download/sim-installation-file: a signed URL of the stored installer. Not
 * cached in SWR: the URL expires within minutes, so each click asks for its own.
 */
export function useGetInstallerFile() {
  const client = useApiClient();
  return useCallback((fileId: string) => client.get<FileDownload>(getInstallerFilePath(fileId)), [client]);
}
