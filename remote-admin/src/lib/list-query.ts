import type { PagedQuery } from '@portal/contract';
import { withQuery } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { ADMIN_PAGE_SIZE } from '../config/constants';

/** The SWR key of one page of a paged admin list (docs/requirements.md#calls: page, ordering, filter). */
export function listPath(path: string, { page, ordering, filter }: PagedListParams): string {
  const query: PagedQuery = {
    page,
    pageSize: ADMIN_PAGE_SIZE,
    ordering,
    filter: filter || undefined,
  };
  return withQuery(path, query);
}

/** Whether an SWR key is a page of the list at `path`, to revalidate every cached page after a write. */
export const isListOf =
  (path: string) =>
  (key: unknown): boolean =>
    typeof key === 'string' && (key === path || key.startsWith(`${path}?`));
