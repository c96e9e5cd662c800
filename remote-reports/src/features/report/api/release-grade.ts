import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import type { Report } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';
import { getReportKey } from './get-report';

/**
 * POST /api/v1/report/{reportId}/release-grade (200 with the report): an educator sends a grade
 * held for review to the learning platform. The answer replaces the cached report. Resolves
 * whether it was released; a refusal (403, 409) or a network error rejects.
 */
export function useReleaseGrade(reportId: string) {
  const client = useApiClient();
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    const result = await client.post<Report>(`${getReportKey(reportId)}/release-grade`, undefined, {
      successStatus: 200,
    });
    if (result.isSuccess) await mutate(getReportKey(reportId), result.data, { revalidate: false });
    return result.isSuccess;
  }, [client, mutate, reportId]);
}
