import type { LearnerReportListQuery, ReportListQuery } from '@portal/contract';
import { withQuery } from '@portal/shared-auth';
import { TABLE_PAGE_SIZE } from '../../../config/constants';

/** What a report list screen asks for; the page size is the table page size of docs/requirements.md#limits-and-defaults. */
export type ReportListParams = Required<Pick<ReportListQuery, 'page' | 'ordering'>> & Pick<ReportListQuery, 'filter'>;

export function reportListPath(path: string, { page, ordering, filter }: ReportListParams): string {
  const query: ReportListQuery = { page, pageSize: TABLE_PAGE_SIZE, ordering, filter: filter || undefined };
  return withQuery(path, query);
}

/** The learner list's params: those of every report list, and one learner by id. */
export type LearnerReportListParams = ReportListParams & Pick<LearnerReportListQuery, 'learnerId'>;

export function learnerReportListPath(path: string, { learnerId, ...params }: LearnerReportListParams): string {
  const query: LearnerReportListQuery = {
    page: params.page,
    pageSize: TABLE_PAGE_SIZE,
    ordering: params.ordering,
    filter: params.filter || undefined,
    learnerId: learnerId || undefined,
  };
  return withQuery(path, query);
}

