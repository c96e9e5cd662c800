import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { EvidenceFeedbackBody, Report, ReportFeedbackBody } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { getReportKey } from './get-report';

/**
 * An educator's feedback (issue #23 point 3): PUT …/evidence/{evidenceId}/feedback (one image's
 * comment) and PUT …/feedback (the report's comment and mark overrides). Both answer the whole
 * report (scores may have changed), which replaces the cached one. Resolves with the API
 * client's result: a 400 carries field errors (`comment`, `overrides.0.mark`, …).
 */
export function useSaveFeedback(reportId: string) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  const key = getReportKey(reportId);
  const saved = useCallback(
    async <R extends { isSuccess: boolean; data: Report | null }>(result: R) => {
      if (result.isSuccess && result.data) await mutate(key, result.data, { revalidate: false });
      return result;
    },
    [key, mutate],
  );
  const saveImage = useCallback(
    async (evidenceId: number, body: EvidenceFeedbackBody) =>
      saved(await client.put<Report>(`${key}/evidence/${evidenceId}/feedback`, body, { successStatus: 200 })),
    [client, key, saved],
  );
  const saveReport = useCallback(
    async (body: ReportFeedbackBody) =>
      saved(await client.put<Report>(`${key}/feedback`, body, { successStatus: 200 })),
    [client, key, saved],
  );
  return { saveImage, saveReport };
}
