import type { Report } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

/** GET /api/v1/report/{reportId}; a report the user may not see answers as not found. */
export const getReportKey = (reportId: string) => `/api/v1/report/${encodeURIComponent(reportId)}`;

export function useReport(reportId: string | null) {
  return useApi<Report>(reportId ? getReportKey(reportId) : null);
}
