import { useCallback, useEffect, useState } from 'react';
import { NotFoundError } from '@portal/shared-auth';
import { DEFAULT_REPORT_ORDERING, INVALID_PAGE } from '../../../config/constants';
import type { ReportListParams } from '../api/report-list-query';

export interface ReportListState {
  params: ReportListParams;
  setPage: (page: number) => void;
  setOrdering: (ordering: string) => void;
  setFilter: (filter: string) => void;
}

/** Page, ordering and search of a report list; a new search or sort starts again at page 1. */
export function useReportListState(): ReportListState {
  const [params, setParams] = useState<ReportListParams>({ page: 1, ordering: DEFAULT_REPORT_ORDERING, filter: '' });
  const setPage = useCallback((page: number) => setParams((p) => ({ ...p, page })), []);
  const setOrdering = useCallback((ordering: string) => setParams((p) => ({ ...p, ordering, page: 1 })), []);
  const setFilter = useCallback((filter: string) => setParams((p) => ({ ...p, filter, page: 1 })), []);
  return { params, setPage, setOrdering, setFilter };
}

export function isInvalidPage(error: unknown): boolean {
  return error instanceof NotFoundError && (error.body as { detail?: unknown } | null)?.detail === INVALID_PAGE;
}

/**
 * Spec §4/§8: a page that no longer exists (the list shrank, or a search narrowed it) answers
 * 'Invalid page.'; the list goes back to page 1 instead of showing an error. True while it does.
 */
export function useResetOnInvalidPage(error: unknown, page: number, setPage: (page: number) => void): boolean {
  const resetting = isInvalidPage(error) && page !== 1;
  useEffect(() => {
    if (resetting) setPage(1);
  }, [resetting, setPage]);
  return resetting;
}
