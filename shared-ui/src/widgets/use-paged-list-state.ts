import { useCallback, useEffect, useState } from 'react';

/** The API's answer to a page past the end of a list (docs/requirements.md#invalid-page, #errors-and-messages). */
export const INVALID_PAGE = 'Invalid page.';

export interface PagedListParams {
  /** From 1, as the API counts. */
  page: number;
  /** A column name, '-' in front for descending. */
  ordering: string;
  filter: string;
}

export interface PagedListState {
  params: PagedListParams;
  setPage: (page: number) => void;
  setOrdering: (ordering: string) => void;
  setFilter: (filter: string) => void;
}

/** Page, ordering and search of a paged list; a new search or sort starts again at page 1. */
export function usePagedListState(initial: { ordering: string; filter?: string }): PagedListState {
  const [params, setParams] = useState<PagedListParams>({
    page: 1,
    ordering: initial.ordering,
    filter: initial.filter ?? '',
  });
  const setPage = useCallback((page: number) => setParams((p) => ({ ...p, page })), []);
  const setOrdering = useCallback(
    (ordering: string) => setParams((p) => ({ ...p, ordering, page: 1 })),
    [],
  );
  const setFilter = useCallback(
    (filter: string) => setParams((p) => ({ ...p, filter, page: 1 })),
    [],
  );
  return { params, setPage, setOrdering, setFilter };
}

/**
 * Whether a load failed with 'Invalid page.'. Read from the error's shape (shared-auth's
 * NotFoundError: status 404 and the body), since shared-ui does not depend on shared-auth.
 */
export function isInvalidPage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, body } = error as { status?: unknown; body?: unknown };
  return status === 404 && (body as { detail?: unknown } | null)?.detail === INVALID_PAGE;
}

/**
 * docs/requirements.md#invalid-page, #errors-and-messages: a page that no longer exists (the list shrank, or a search narrowed it) answers
 * 'Invalid page.'; the list goes back to page 1 instead of showing an error. True while it does.
 */
export function useResetOnInvalidPage(
  error: unknown,
  page: number,
  setPage: (page: number) => void,
): boolean {
  const resetting = isInvalidPage(error) && page !== 1;
  useEffect(() => {
    if (resetting) setPage(1);
  }, [resetting, setPage]);
  return resetting;
}
