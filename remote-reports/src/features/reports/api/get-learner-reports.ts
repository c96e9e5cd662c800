import type { LearnerReportRow, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { reportListPath, type ReportListParams } from './report-list-query';

/** GET /api/v1/report/learner: reports of the learners the user may see. */
export const getLearnerReportsKey = (params: ReportListParams) => reportListPath('/api/v1/report/learner', params);

export function useLearnerReports(params: ReportListParams) {
  return useApi<PagedResult<LearnerReportRow>>(getLearnerReportsKey(params), { keepPreviousData: true });
}
