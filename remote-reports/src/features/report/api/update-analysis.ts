import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { AnalysisBody, Evidence, Report } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { getReportKey } from './get-report';

export type UpdateAnalysisInput = AnalysisBody;

/** Lists show a summary of every report's analysis, so their cached pages are refreshed too. */
const isReportListKey = (key: unknown): boolean => typeof key === 'string' && /^\/api\/v1\/report(\/learner)?(\?|$)/.test(key);

/**
 * PUT /api/v1/report/{reportId}/evidence/{evidenceId}/analysis. Resolves with the API client's
 * result (a 400 carries field errors); on success the saved evidence replaces the cached one and
 * the report and the lists are revalidated.
 */
export function useUpdateAnalysis(reportId: string) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (evidenceId: number, input: UpdateAnalysisInput) => {
      const result = await client.put<Evidence>(
        `/api/v1/report/${encodeURIComponent(reportId)}/evidence/${evidenceId}/analysis`,
        input,
      );
      if (result.isSuccess) {
        const saved = result.data;
        await mutate<Report>(
          getReportKey(reportId),
          (report) => report && { ...report, evidence: report.evidence.map((e) => (e.id === saved.id ? saved : e)) },
          { revalidate: true },
        );
        void mutate(isReportListKey);
      }
      return result;
    },
    [client, mutate, reportId],
  );
}
