import type { ReportColumn } from '../components/report-columns';

/** The grid's default narrowest column (px), for columns that set no `minWidth`. */
export const GRID_MIN_COLUMN_WIDTH = 120;

/**
 * Whether the columns at their narrowest are wider than a grid `gridWidth` px wide, so the grid
 * scrolls sideways (a phone at 390 px). A width of 0 is a grid not laid out yet (or hidden), which
 * says nothing about the screen.
 */
export function columnsOverflow(columns: readonly Pick<ReportColumn<unknown>, 'minWidth'>[], gridWidth: number): boolean {
  if (gridWidth <= 0) return false;
  const narrowest = columns.reduce((sum, column) => sum + (column.minWidth ?? GRID_MIN_COLUMN_WIDTH), 0);
  return narrowest > gridWidth;
}
