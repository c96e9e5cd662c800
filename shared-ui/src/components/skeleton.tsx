import { useTranslation } from '../i18n/react-i18next';
import styled, { keyframes } from 'styled-components';
import { VisuallyHidden } from './visually-hidden';

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.45; }
`;

export const SkeletonBar = styled.span`
  display: block;
  height: 0.9em;
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.skeleton};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;

const Cell = styled.td`
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.sm}`};
`;

/** Placeholder rows for a table body; widths vary so the shape reads as text. */
export function SkeletonRows({ columns, rows }: { columns: number; rows: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r} data-skeleton-row="">
          {Array.from({ length: columns }, (_, c) => (
            <Cell key={c}>
              <SkeletonBar style={{ width: `${55 + ((r * 7 + c * 13) % 40)}%` }} />
            </Cell>
          ))}
        </tr>
      ))}
    </>
  );
}

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
`;

export interface TableSkeletonProps {
  columns?: number;
  rows?: number;
}

/** A table-shaped loading placeholder (docs/requirements.md#lists: 4 columns, 10 rows). */
export function TableSkeleton({ columns = 4, rows = 10 }: TableSkeletonProps) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite">
      <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
      <Table aria-hidden="true">
        <tbody>
          <SkeletonRows columns={columns} rows={rows} />
        </tbody>
      </Table>
    </div>
  );
}
