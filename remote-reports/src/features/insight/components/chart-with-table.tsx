import type { ReactNode } from 'react';
import styled from 'styled-components';
import { FiguresTable } from '../../../components/figures-table';

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  align-items: start;
  margin-bottom: ${({ theme }) => theme.space.xl};

  ${({ theme }) => theme.media.lg} {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  }
`;

// A table scrolls sideways on a narrow screen instead of widening the page; the scrolling box is
// a named region that takes focus, so it can be scrolled by keyboard too (axe: scrollable-region-focusable).
const Scroll = styled.div`
  overflow-x: auto;
  min-width: 0;
`;

export interface FiguresColumn {
  header: string;
  /** Aligned to the end, so digits line up. */
  numeric?: boolean;
}

export interface FiguresRow {
  key: string | number;
  /** The row's name (a week, a projection, a learner): its row header. */
  name: ReactNode;
  cells: readonly ReactNode[];
}

export interface ChartWithTableProps {
  chart: ReactNode;
  /** The table's caption, which the chart's description names. */
  caption: string;
  /** The first column is the rows' names. */
  columns: readonly FiguresColumn[];
  rows: readonly FiguresRow[];
}

/** A chart with the table of its numbers beside it (below it on narrow screens). */
export function ChartWithTable({ chart, caption, columns, rows }: ChartWithTableProps) {
  const numberClass = (column: FiguresColumn | undefined) => (column?.numeric ? 'number' : undefined);
  return (
    <Layout>
      {chart}
      <Scroll role="region" aria-label={caption} tabIndex={0}>
        <FiguresTable>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={numberClass(column)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.name}</th>
                {row.cells.map((cell, i) => (
                  <td key={columns[i + 1]?.header ?? i} className={numberClass(columns[i + 1])}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </FiguresTable>
      </Scroll>
    </Layout>
  );
}
