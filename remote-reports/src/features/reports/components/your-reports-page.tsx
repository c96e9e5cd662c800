import { usePageTitle, useTranslation } from '@portal/shared-ui';
import {
  DataTable,
  Pagination,
  usePagedListState,
  useResetOnInvalidPage,
} from '@portal/shared-ui/widgets';
import { DEFAULT_REPORT_ORDERING } from '../../../config/constants';
import { useReports } from '../api/get-reports';
import { useReportColumns } from './report-columns';
import { ReportListSearch } from './report-list-search';
import { ReportTabs } from '../../../components/report-tabs';

/** /report: the signed-in user's own reports. */
export function YourReportsPage() {
  const { t } = useTranslation('reports');
  usePageTitle(t('yourReports'));
  const { params, setPage, setOrdering, setFilter } = usePagedListState({
    ordering: DEFAULT_REPORT_ORDERING,
  });
  const { data, error, isLoading } = useReports(params);
  const resetting = useResetOnInvalidPage(error, params.page, setPage);
  const columns = useReportColumns();

  return (
    <section>
      <h1>{t('yourReports')}</h1>
      <ReportTabs />
      <ReportListSearch onChange={setFilter} />
      <DataTable
        caption={t('yourReports')}
        columns={columns}
        rows={data?.results ?? []}
        ordering={params.ordering}
        onOrderingChange={setOrdering}
        loading={(isLoading && !data) || resetting}
        error={resetting ? null : error}
      />
      {data && !error && (
        <Pagination page={params.page} totalPages={data.totalPages} onPageChange={setPage} />
      )}
    </section>
  );
}
