import type { LearnerReportRow, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { learnerReportListPath, type LearnerReportListParams } from './report-list-query';

/** GET /api/v1/report/learner: reports of the learners the user may see, or of one of them (`learnerId`). */
export const getLearnerReportsKey = (params: LearnerReportListParams) =>
  learnerReportListPath('/api/v1/report/learner', params);

/** `null` asks for nothing (the screen found the params invalid). */
export function useLearnerReports(params: LearnerReportListParams | null) {
  return useApi<PagedResult<LearnerReportRow>>(params && getLearnerReportsKey(params), { keepPreviousData: true });
}
