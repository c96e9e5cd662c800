import type { Report } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

/** GET /api/v1/report/{reportId}; a report the user may not see answers as not found. */
export const getReportKey = (reportId: string) => `/api/v1/report/${encodeURIComponent(reportId)}`;

/** How often a report with an image still being marked is fetched again (marking takes moments). */
export const MARKING_REFRESH_MS = 2000;

export function useReport(reportId: string | null) {
  return useApi<Report>(reportId ? getReportKey(reportId) : null, {
    // Until the API has marked every image (issue #24 point 5), so "Marking…" turns into marks.
    refreshInterval: (report) =>
      report?.evidence.some((e) => e.markingPending) ? MARKING_REFRESH_MS : 0,
  });
}
