import type { ImageUrl } from '@portal/contract';
import { useApi, withQuery } from '@portal/shared-auth';

/**
 * GET /api/v1/report/{reportId}/image?id=..&id=..: short-lived signed URLs of evidence images.
 * The API takes at most MAX_IMAGE_IDS_PER_CALL ids; a report page asks for its own images only
 * (paginateEvidence keeps a page within that), so no id is ever cut off.
 */
export const getReportImagesKey = (reportId: string, evidenceIds: readonly number[]) =>
  withQuery(`/api/v1/report/${encodeURIComponent(reportId)}/image`, { id: [...evidenceIds] });

/**
 * Signed URLs expire within minutes, so they are asked for when the report is shown and not
 * kept as stale data: a report opened again later fetches fresh ones.
 */
export function useReportImages(reportId: string, evidenceIds: readonly number[]) {
  return useApi<ImageUrl[]>(evidenceIds.length > 0 ? getReportImagesKey(reportId, evidenceIds) : null, {
    revalidateOnMount: true,
  });
}
