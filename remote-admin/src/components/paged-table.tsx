import type { SWRResponse } from 'swr';
import type { PagedResult } from '@portal/contract';
import {
  DataTable,
  Pagination,
  SearchInput,
  useResetOnInvalidPage,
  type DataTableColumn,
  type PagedListState,
} from '@portal/shared-ui/widgets';

export interface PagedTableProps<T> {
  list: PagedListState;
  result: SWRResponse<PagedResult<T>, Error>;
  columns: readonly DataTableColumn<T>[];
  /** The table's accessible name. */
  caption: string;
  /** Label of the search box; no search box without it. */
  searchLabel?: string;
  getRowKey?: (row: T, index: number) => string | number;
}

/**
 * docs/requirements.md#lists lists: a debounced search, sortable headers, pages; the skeleton while the first page
 * loads, "No records found" when empty, and back to page 1 on "Invalid page." (§4).
 */
export function PagedTable<T>({
  list,
  result,
  columns,
  caption,
  searchLabel,
  getRowKey,
}: PagedTableProps<T>) {
  const { params, setPage, setOrdering, setFilter } = list;
  const { data, error, isLoading } = result;
  const resetting = useResetOnInvalidPage(error, params.page, setPage);
  return (
    <>
      {searchLabel && <SearchInput label={searchLabel} onChange={setFilter} />}
      <DataTable
        caption={caption}
        columns={columns}
        rows={data?.results ?? []}
        ordering={params.ordering}
        onOrderingChange={setOrdering}
        loading={(isLoading && !data) || resetting}
        error={resetting ? null : error}
        getRowKey={getRowKey}
      />
      {data && !error && (
        <Pagination page={params.page} totalPages={data.totalPages} onPageChange={setPage} />
      )}
    </>
  );
}
