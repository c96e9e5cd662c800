import type { ReportListQuery } from '@portal/contract';
import { withQuery } from '@portal/shared-auth';
import { TABLE_PAGE_SIZE } from '../../../config/constants';

/** What a report list screen asks for; the page size is the table page size of docs/requirements.md#limits-and-defaults. */
export type ReportListParams = Required<Pick<ReportListQuery, 'page' | 'ordering'>> & Pick<ReportListQuery, 'filter'>;

export function reportListPath(path: string, { page, ordering, filter }: ReportListParams): string {
  const query: ReportListQuery = { page, pageSize: TABLE_PAGE_SIZE, ordering, filter: filter || undefined };
  return withQuery(path, query);
}

