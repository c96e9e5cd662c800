import { DataTable, Pagination, usePageTitle, useTranslation } from '@portal/shared-ui';
import { useReports } from '../api/get-reports';
import { useReportListState, useResetOnInvalidPage } from '../hooks/use-report-list-state';
import { useReportColumns } from './report-columns';
import { ReportListSearch } from './report-list-search';
import { ReportTabs } from './report-tabs';

/** /report: the signed-in user's own reports. */
export function YourReportsPage() {
  const { t } = useTranslation();
  usePageTitle(t('reports.yourReports'));
  const { params, setPage, setOrdering, setFilter } = useReportListState();
  const { data, error, isLoading } = useReports(params);
  const resetting = useResetOnInvalidPage(error, params.page, setPage);
  const columns = useReportColumns();

  return (
    <section>
      <h1>{t('reports.yourReports')}</h1>
      <ReportTabs />
      <ReportListSearch onChange={setFilter} />
      <DataTable
        caption={t('reports.yourReports')}
        columns={columns}
        rows={data?.results ?? []}
        ordering={params.ordering}
        onOrderingChange={setOrdering}
        loading={(isLoading && !data) || resetting}
        error={resetting ? null : error}
      />
      {data && !error && <Pagination page={params.page} totalPages={data.totalPages} onPageChange={setPage} />}
    </section>
  );
}
