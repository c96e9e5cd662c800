import { useMemo, useState } from 'react';
import { AgGridReact, type CustomCellRendererProps } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  themeQuartz,
  type CellKeyDownEvent,
  type ColDef,
  type GridSizeChangedEvent,
  type SortChangedEvent,
} from 'ag-grid-community';
import { theme } from '@portal/shared-ui';
import { parseOrdering } from '@portal/shared-ui/widgets';
import type { LearnerReportRow } from '@portal/contract';
import { columnsOverflow, GRID_MIN_COLUMN_WIDTH } from '../lib/columns-overflow';
import type { ReportColumn } from './report-columns';

// Only the client-side row model: the rows of one page arrive from the server, which also sorts
// and pages them, so no filter, pagination or other module is bundled.
ModuleRegistry.registerModules([ClientSideRowModelModule]);

const gridTheme = themeQuartz.withParams({
  accentColor: theme.colors.primary,
  fontFamily: theme.fonts.body,
  foregroundColor: theme.colors.text,
  headerBackgroundColor: theme.colors.surfaceMuted,
  borderColor: theme.colors.border,
});

// The server orders the rows; a comparator that calls every pair equal keeps its order.
const keepServerOrder = () => 0;

export interface LearnerReportsGridProps {
  columns: readonly ReportColumn<LearnerReportRow>[];
  rows: readonly LearnerReportRow[];
  ordering: string;
  onOrderingChange: (ordering: string) => void;
  label: string;
}

/**
 * The learner reports table. Deliberately thin: what each cell shows comes from `columns`
 * (shared with the DataTable lists); the grid only lays it out and reports header clicks as a
 * DRF `ordering`. Sorting cycles ascending/descending and is never removed (docs/requirements.md#lists).
 */
export function LearnerReportsGrid({
  columns,
  rows,
  ordering,
  onOrderingChange,
  label,
}: LearnerReportsGridProps) {
  // Known once the grid is laid out; until then nothing is pinned.
  const [overflows, setOverflows] = useState(false);
  const onGridSizeChanged = (event: GridSizeChangedEvent<LearnerReportRow>) =>
    setOverflows(columnsOverflow(columns, event.clientWidth));

  const columnDefs = useMemo<ColDef<LearnerReportRow>[]>(() => {
    const sorted = parseOrdering(ordering);
    return columns.map((column) => ({
      colId: column.key,
      headerName: column.header,
      sortable: column.sortable,
      ...(column.minWidth ? { minWidth: column.minWidth } : {}),
      ...(column.keepInView && overflows
        ? { pinned: 'right' as const, flex: null, width: column.minWidth ?? GRID_MIN_COLUMN_WIDTH }
        : { pinned: null }),
      comparator: keepServerOrder,
      // Controlled: the sort arrow always shows the ordering the rows were fetched with.
      sort: sorted?.key === column.key ? (sorted.direction === 'ascending' ? 'asc' : 'desc') : null,
      cellRenderer: ({ data }: CustomCellRendererProps<LearnerReportRow>) =>
        data ? column.render(data) : null,
    }));
  }, [columns, ordering, overflows]);

  const onSortChanged = (event: SortChangedEvent<LearnerReportRow>) => {
    if (event.source !== 'uiColumnSorted') return;
    const column = event.columns?.find((c) => c.getSort());
    if (column) onOrderingChange(`${column.getSort() === 'desc' ? '-' : ''}${column.getColId()}`);
  };

  // ag-grid moves focus cell by cell and keeps Tab for that, so a link inside a cell is never
  // focused itself: Enter on its cell follows it, as a click on it would.
  const onCellKeyDown = (event: CellKeyDownEvent<LearnerReportRow>) => {
    const key = event.event;
    if (
      !(key instanceof KeyboardEvent) ||
      key.key !== 'Enter' ||
      !(key.target instanceof HTMLElement)
    )
      return;
    const link = key.target.closest('.ag-cell')?.querySelector<HTMLAnchorElement>('a[href]');
    if (!link) return;
    key.preventDefault();
    link.click();
  };

  return (
    <div aria-label={label} role="region">
      <AgGridReact<LearnerReportRow>
        theme={gridTheme}
        columnDefs={columnDefs}
        defaultColDef={{ flex: 1, minWidth: 120, sortingOrder: ['asc', 'desc'] }}
        rowData={rows as LearnerReportRow[]}
        getRowId={({ data }) => String(data.id)}
        domLayout="autoHeight"
        suppressColumnVirtualisation
        onGridSizeChanged={onGridSizeChanged}
        onSortChanged={onSortChanged}
        onCellKeyDown={onCellKeyDown}
      />
    </div>
  );
}
