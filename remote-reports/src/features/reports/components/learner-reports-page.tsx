import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { RequirePermission } from '@portal/shared-auth';
import { NotFoundView, TableSkeleton, usePageTitle, useTranslation } from '@portal/shared-ui';
import { Pagination, usePagedListState, useResetOnInvalidPage } from '@portal/shared-ui/widgets';
import { DEFAULT_REPORT_ORDERING } from '../../../config/constants';
import { LEARNER_REPORTS_PERMISSIONS } from '../../../config/permissions';
import { useLearnerReports } from '../api/get-learner-reports';
import { useReportColumns } from './report-columns';
import { ReportListSearch } from './report-list-search';
import { ReportTabs } from './report-tabs';

// ag-grid is the largest library of this remote; only this screen pays for it.
const LearnerReportsGrid = lazy(async () => ({
  default: (await import('./learner-reports-grid')).LearnerReportsGrid,
}));

const Notice = styled.p<{ $error?: boolean }>`
  padding: ${({ theme }) => theme.space.xl};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  text-align: center;
  color: ${({ theme, $error }) => ($error ? theme.colors.errorText : theme.colors.textMuted)};
`;

function LearnerReportsList() {
  const { t } = useTranslation('reports');
  const { params, setPage, setOrdering, setFilter } = usePagedListState({
    ordering: DEFAULT_REPORT_ORDERING,
  });
  const { data, error, isLoading } = useLearnerReports(params);
  const resetting = useResetOnInvalidPage(error, params.page, setPage);
  const columns = useReportColumns({ withUser: true });
  const skeleton = <TableSkeleton columns={4} rows={10} />;

  let content;
  if ((isLoading && !data) || resetting) content = skeleton;
  else if (error || !data)
    content = (
      <Notice $error role="alert">
        {t('common.tableLoadError')}
      </Notice>
    );
  else if (data.results.length === 0) content = <Notice>{t('common.noRecordsFound')}</Notice>;
  else
    content = (
      <Suspense fallback={skeleton}>
        <LearnerReportsGrid
          label={t('learnerReports')}
          columns={columns}
          rows={data.results}
          ordering={params.ordering}
          onOrderingChange={setOrdering}
        />
      </Suspense>
    );

  return (
    <>
      <ReportListSearch onChange={setFilter} />
      {content}
      {data && !error && (
        <Pagination page={params.page} totalPages={data.totalPages} onPageChange={setPage} />
      )}
    </>
  );
}

/** /report/learner: reports of the learners the user may see (docs/requirements.md#main-area). */
export function LearnerReportsPage() {
  const { t } = useTranslation('reports');
  usePageTitle(t('learnerReports'));
  return (
    <RequirePermission anyOf={LEARNER_REPORTS_PERMISSIONS} fallback={<NotFoundView />}>
      <section>
        <h1>{t('learnerReports')}</h1>
        <ReportTabs />
        <LearnerReportsList />
      </section>
    </RequirePermission>
  );
}
