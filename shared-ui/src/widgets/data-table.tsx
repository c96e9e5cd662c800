import type { ReactNode } from 'react';
import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { nextOrdering, parseOrdering } from './ordering';
import { SkeletonRows } from '@portal/shared-ui';
import { VisuallyHidden } from '@portal/shared-ui';

export interface DataTableColumn<T> {
  /** Field name: the default cell value and the `ordering` value when sortable. */
  key: string;
  header: string;
  sortable?: boolean;
  render?: (row: T) => ReactNode;
}

export interface DataTableProps<T> {
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  /** DRF ordering: "name" ascending, "-name" descending. */
  ordering?: string | null;
  onOrderingChange?: (ordering: string) => void;
  loading?: boolean;
  /** Any truthy value shows the load-failure notice. */
  error?: unknown;
  /** Accessible name of the table. */
  caption?: string;
  /** Stable row key; defaults to `row.id`, then the index. */
  getRowKey?: (row: T, index: number) => string | number;
}

const Wrapper = styled.div`
  overflow-x: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;

  th,
  td {
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    text-align: left;
    vertical-align: middle;
  }

  thead th {
    background: ${({ theme }) => theme.colors.surfaceMuted};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
    white-space: nowrap;
  }

  tbody tr + tr {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
`;

const SortButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  padding: 0;
  border: 0;
  background: none;
  color: inherit;
  font-weight: inherit;
  cursor: pointer;
`;

const Notice = styled.td<{ $error?: boolean }>`
  padding: ${({ theme }) => theme.space.xl} !important;
  text-align: center !important;
  color: ${({ theme, $error }) => ($error ? theme.colors.errorText : theme.colors.textMuted)};
`;

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  const path =
    direction === 'ascending'
      ? 'M4 10l4-5 4 5z'
      : direction === 'descending'
        ? 'M4 6l4 5 4-5z'
        : 'M4 7l4-4 4 4zM4 9l4 4 4-4z';
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      fill="currentColor"
    >
      <path d={path} />
    </svg>
  );
}

function defaultRowKey(row: unknown, index: number): string | number {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : index;
}

function cellValue(row: unknown, key: string): ReactNode {
  const value = (row as Record<string, unknown> | null)?.[key];
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A server-sorted table: the parent owns `ordering` and fetches the rows for it. */
export function DataTable<T>({
  columns,
  rows,
  ordering,
  onOrderingChange,
  loading = false,
  error,
  caption,
  getRowKey = defaultRowKey,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const sorted = parseOrdering(ordering);

  let body: ReactNode;
  if (loading) {
    body = <SkeletonRows columns={columns.length} rows={10} />;
  } else if (error) {
    body = (
      <tr>
        <Notice colSpan={columns.length} $error role="alert">
          {t('common.tableLoadError')}
        </Notice>
      </tr>
    );
  } else if (rows.length === 0) {
    body = (
      <tr>
        <Notice colSpan={columns.length}>{t('common.noRecordsFound')}</Notice>
      </tr>
    );
  } else {
    body = rows.map((row, index) => (
      <tr key={getRowKey(row, index)}>
        {columns.map((column) => (
          <td key={column.key}>
            {column.render ? column.render(row) : cellValue(row, column.key)}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <Wrapper>
      {loading && <VisuallyHidden role="status">{t('common.loading')}</VisuallyHidden>}
      <Table aria-busy={loading || undefined}>
        {caption && (
          <caption>
            <VisuallyHidden>{caption}</VisuallyHidden>
          </caption>
        )}
        <thead>
          <tr>
            {columns.map((column) => {
              if (!column.sortable) {
                return (
                  <th key={column.key} scope="col">
                    {column.header}
                  </th>
                );
              }
              const direction = sorted?.key === column.key ? sorted.direction : 'none';
              return (
                <th key={column.key} scope="col" aria-sort={direction}>
                  <SortButton
                    type="button"
                    onClick={() => onOrderingChange?.(nextOrdering(ordering, column.key))}
                  >
                    {column.header}
                    <SortIcon direction={direction} />
                  </SortButton>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </Table>
    </Wrapper>
  );
}
