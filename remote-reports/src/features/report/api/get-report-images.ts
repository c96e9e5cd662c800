import type { ImageUrl } from '@portal/contract';
import { useApi, withQuery } from '@portal/shared-auth';

/** The API answers at most this many ids per call (ImageBatchQuery). */
const MAX_IDS_PER_CALL = 100;

/** GET /api/v1/report/{reportId}/image?id=..&id=..: short-lived signed URLs of evidence images. */
export const getReportImagesKey = (reportId: string, evidenceIds: readonly number[]) =>
  withQuery(`/api/v1/report/${encodeURIComponent(reportId)}/image`, { id: evidenceIds.slice(0, MAX_IDS_PER_CALL) });

/**
 * Signed URLs expire within minutes, so they are asked for when the report is shown and not
 * kept as stale data: a report opened again later fetches fresh ones.
 */
export function useReportImages(reportId: string, evidenceIds: readonly number[]) {
  return useApi<ImageUrl[]>(evidenceIds.length > 0 ? getReportImagesKey(reportId, evidenceIds) : null, {
    revalidateOnMount: true,
  });
}
