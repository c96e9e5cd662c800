import type { Insight, InsightQuery } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { insightSearch } from '../lib/insight-filters';

/** GET /api/v1/organisation/{id}/insight: an organisation's cohort insight; `null` waits. */
export const insightPath = (organisationId: number, query: InsightQuery) =>
  `/api/v1/organisation/${organisationId}/insight${insightSearch(query)}`;

/** GET /api/v1/organisation/{id}/insight/export.csv: one row per image, same filters. */
export const insightExportPath = (organisationId: number, query: InsightQuery) =>
  `/api/v1/organisation/${organisationId}/insight/export.csv${insightSearch(query)}`;

export function useInsight(organisationId: number | null, query: InsightQuery | null) {
  // The previous figures stay on screen while new filters load, so the charts do not flash.
  return useApi<Insight>(organisationId && query ? insightPath(organisationId, query) : null, {
    keepPreviousData: true,
  });
}
