import { lazy, Suspense, useId, useState } from 'react';
import styled from 'styled-components';
import { isUuid } from '@portal/contract';
import { RequirePermission } from '@portal/shared-auth';
import { Button, NotFoundView, TableSkeleton, usePageTitle, useSearchParams, useTranslation } from '@portal/shared-ui';
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

/** The URL parameter naming one learner (their user id) whose reports the list shows. */
export const LEARNER_PARAM = 'learner';

const FilterBar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};

  p {
    margin: 0;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

/**
 * Which learner the list is narrowed to, and the way back to every learner. The name comes from
 * the rows (each is that learner's); with none there is no name to show, only that it is one learner.
 */
function LearnerFilterBar({ name, onClear }: { name: string | undefined; onClear: () => void }) {
  const { t } = useTranslation('reports');
  const id = useId();
  return (
    <FilterBar role="group" aria-labelledby={id}>
      <p id={id}>{name ? t('list.learnerFilter', { name }) : t('list.learnerFilterUnnamed')}</p>
      <Button variant="secondary" onClick={onClear}>
        {t('list.clearLearnerFilter')}
      </Button>
    </FilterBar>
  );
}

function LearnerReportsList({ learner, onClearLearner }: { learner: string; onClearLearner: () => void }) {
  const { t } = useTranslation('reports');
  // A link may open the list searched already.
  const [searchParams] = useSearchParams();
  const initialFilter = searchParams.get('filter') ?? '';
  const { params, setPage, setOrdering, setFilter } = usePagedListState({
    ordering: DEFAULT_REPORT_ORDERING,
    filter: initialFilter,
  });
  // A learner id that is no uuid is no learner: the API would refuse it (400), so it is not asked.
  const learnerValid = !learner || isUuid(learner);
  const { data, error, isLoading } = useLearnerReports(learnerValid ? { ...params, learnerId: learner || undefined } : null);
  const resetting = useResetOnInvalidPage(error, params.page, setPage);
  // Every row is the learner's: the name of the first one seen stays when a search empties the list.
  const rowName = learner ? data?.results[0]?.user : undefined;
  const [learnerName, setLearnerName] = useState(rowName);
  if (rowName && rowName !== learnerName) setLearnerName(rowName);
  const columns = useReportColumns({ withUser: true });
  const skeleton = <TableSkeleton columns={4} rows={10} />;

  let content;
  if (!learnerValid)
    content = (
      <Notice $error role="alert">
        {t('list.learnerFilterInvalid')}
      </Notice>
    );
  else if ((isLoading && !data) || resetting) content = skeleton;
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
      {learner && <LearnerFilterBar name={learnerName} onClear={onClearLearner} />}
      <ReportListSearch onChange={setFilter} defaultValue={initialFilter} />
      {content}
      {data && !error && (
        <Pagination page={params.page} totalPages={data.totalPages} onPageChange={setPage} />
      )}
    </>
  );
}

/**
 * The list, narrowed to one learner by `?learner=<user id>` (the insight screen's "Reports of …":
 * by id, since a search for their name also finds every namesake). Keyed by the learner, so
 * clearing or changing it starts from page 1.
 */
function LearnerReports() {
  const [searchParams, setSearchParams] = useSearchParams();
  const learner = searchParams.get(LEARNER_PARAM) ?? '';
  const onClearLearner = () => {
    const next = new URLSearchParams(searchParams);
    next.delete(LEARNER_PARAM);
    setSearchParams(next);
  };
  return <LearnerReportsList key={learner} learner={learner} onClearLearner={onClearLearner} />;
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
        <LearnerReports />
      </section>
    </RequirePermission>
  );
}
