import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { Link, useTranslation } from '@portal/shared-ui';
import type { LearnerReportRow, ReportRow } from '@portal/contract';
import { AnalysisStatusIcon } from '../../../components/analysis-status-icon';
import { useReportsBase } from '../../../components/reports-base';
import { paths } from '../../../config/paths';
import { formatReportTime } from '../../../lib/format';

/**
 * One description of a report list's columns, rendered by the shared DataTable (your reports) and
 * mapped onto ag-grid column definitions (learner reports), so both lists show the same cells.
 * `key` is the API's `ordering` field when the column is sortable.
 */
export interface ReportColumn<T> {
  key: string;
  header: string;
  sortable: boolean;
  render: (row: T) => ReactNode;
  /**
   * Narrowest the column may get (px) in the grid: its longest usual value stays whole, and the
   * table scrolls sideways on small screens instead of cutting text.
   */
  minWidth?: number;
  /**
   * Pinned to the grid's right edge while the columns do not fit (narrow screens), so it never
   * scrolls out of view: the report link is what the list is for.
   */
  keepInView?: boolean;
}

export function ViewReportLink({ row }: { row: ReportRow }) {
  const { t } = useTranslation('reports');
  const base = useReportsBase();
  if (!row.hasReportDetails) return null;
  return <Link to={paths.report.getHref(base, row.uuid)}>{t('list.viewReport')}</Link>;
}

export function useReportColumns(): ReportColumn<ReportRow>[];
export function useReportColumns(options: { withUser: true }): ReportColumn<LearnerReportRow>[];
export function useReportColumns({ withUser = false }: { withUser?: boolean } = {}): ReportColumn<LearnerReportRow>[] {
  const { t, i18n } = useTranslation('reports');
  const language = i18n.language;
  return useMemo(() => {
    const columns: (ReportColumn<LearnerReportRow> | false)[] = [
      { key: 'simulation', header: t('list.simulation'), sortable: true, minWidth: 160, render: (row) => row.simulation },
      { key: 'session', header: t('list.session'), sortable: true, minWidth: 160, render: (row) => row.session },
      withUser && { key: 'user', header: t('list.user'), sortable: true, minWidth: 180, render: (row) => row.user },
      {
        key: 'recorded',
        header: t('list.recorded'),
        sortable: true,
        // "25/12/2026 14:05pm" with the sort arrow.
        minWidth: 190,
        render: (row) => formatReportTime(row.recorded, language),
      },
      {
        key: 'analysisStatusSummary',
        header: t('list.analysisStatus'),
        sortable: false,
        minWidth: 150,
        render: (row) => <AnalysisStatusIcon summary={row.analysisStatusSummary} />,
      },
      {
        key: 'report',
        header: t('list.report'),
        sortable: false,
        // "Bericht ansehen" whole, with the cell's padding.
        minWidth: 150,
        keepInView: true,
        render: (row) => <ViewReportLink row={row} />,
      },
    ];
    return columns.filter((c): c is ReportColumn<LearnerReportRow> => c !== false);
  }, [t, language, withUser]);
}
