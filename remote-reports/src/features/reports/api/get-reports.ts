import type { PagedResult, ReportRow } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { reportListPath, type ReportListParams } from './report-list-query';

/** GET /api/v1/report: the signed-in user's own reports. */
export const getReportsKey = (params: ReportListParams) => reportListPath('/api/v1/report', params);

export function useReports(params: ReportListParams) {
  // The previous page stays on screen while the next loads, so the table does not flash.
  return useApi<PagedResult<ReportRow>>(getReportsKey(params), { keepPreviousData: true });
}
