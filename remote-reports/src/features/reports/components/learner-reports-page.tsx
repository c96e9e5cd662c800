import { lazy, Suspense } from 'react';
import { RequirePermission } from '@portal/shared-auth';
import { NotFoundView, TableSkeleton, usePageTitle, useSearchParams, useTranslation } from '@portal/shared-ui';
import { Pagination, usePagedListState, useResetOnInvalidPage } from '@portal/shared-ui/widgets';
import { DEFAULT_REPORT_ORDERING } from '../../../config/constants';
import { LEARNER_REPORTS_PERMISSIONS } from '../../../config/permissions';
import { useLearnerReports } from '../api/get-learner-reports';
import { useReportColumns } from './report-columns';
import { ReportListSearch } from './report-list-search';
import { ReportTabs } from '../../../components/report-tabs';
import { Notice } from '../../../components/notice';

// ag-grid is the largest library of this remote; only this screen pays for it.
const LearnerReportsGrid = lazy(async () => ({
  default: (await import('./learner-reports-grid')).LearnerReportsGrid,
}));

function LearnerReportsList() {
  const { t } = useTranslation('reports');
  // A link may open the list searched already (the insight screen's "Reports of …").
  const [searchParams] = useSearchParams();
  const initialFilter = searchParams.get('filter') ?? '';
  const { params, setPage, setOrdering, setFilter } = usePagedListState({
    ordering: DEFAULT_REPORT_ORDERING,
    filter: initialFilter,
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
      <ReportListSearch onChange={setFilter} defaultValue={initialFilter} />
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
