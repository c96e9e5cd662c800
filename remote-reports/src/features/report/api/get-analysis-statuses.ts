import type { LookupList } from '@portal/contract';
import { useApi, withQuery } from '@portal/shared-auth';

/** GET /api/v1/lookup?field=analysis_status: the status choices and their names. */
export const ANALYSIS_STATUS_LOOKUP_KEY = withQuery('/api/v1/lookup', { field: 'analysis_status' });

export function useAnalysisStatuses() {
  return useApi<LookupList>(ANALYSIS_STATUS_LOOKUP_KEY);
}
