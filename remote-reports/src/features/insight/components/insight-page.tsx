import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import type { FieldErrors } from '@portal/contract';
import { ApiError, RequirePermission, useAuth, usePermissions } from '@portal/shared-auth';
import { NotFoundView, PageSpinner, usePageTitle, useSearchParams, useTranslation } from '@portal/shared-ui';
import { INSIGHT_PERMISSIONS, PICKS_INSIGHT_ORGANISATION } from '../../../config/permissions';
import { ReportTabs } from '../../../components/report-tabs';
import { useInsight } from '../api/get-insight';
import { useProductOptions } from '../api/get-filter-options';
import { FILTER_FIELDS, filtersToParams, ORGANISATION_PARAM, parseFilters, parseId } from '../lib/insight-filters';
import { useInsightFormat } from '../lib/use-insight-format';
import { ExportCsvButton } from './export-csv-button';
import { InsightFiltersForm, type InsightFiltersFormProps } from './insight-filters-form';
import { Notice } from '../../../components/notice';

// The charts and tables: only this screen loads them.
const InsightSections = lazy(async () => ({ default: (await import('./insight-sections')).InsightSections }));

const RangeBar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.lg};

  p {
    margin: 0;
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
`;

/** The API's 400 names the field it refused (contract FieldErrors). */
function apiFieldErrors(error: unknown): InsightFiltersFormProps['errors'] {
  if (!(error instanceof ApiError) || error.status !== 400 || typeof error.body !== 'object' || error.body === null) return {};
  const body = error.body as FieldErrors;
  return Object.fromEntries(FILTER_FIELDS.filter((f) => Array.isArray(body[f])).map((f) => [f, body[f]]));
}

function InsightView() {
  const { t } = useTranslation('reports');
  const f = useInsightFormat();
  const { user } = useAuth();
  const can = usePermissions();
  const [searchParams, setSearchParams] = useSearchParams();
  const picksOrganisation = can(PICKS_INSIGHT_ORGANISATION);
  const organisationParam = searchParams.get(ORGANISATION_PARAM) ?? '';
  const organisationId = picksOrganisation ? parseId(organisationParam) : (user?.organisationId ?? null);
  const filters = parseFilters(searchParams);
  const valid = Object.keys(filters.errors).length === 0;

  const { data, error } = useInsight(organisationId, valid ? filters.query : null);
  const products = useProductOptions();
  const fieldErrors: InsightFiltersFormProps['errors'] = { ...apiFieldErrors(error), ...filters.errors };
  if (picksOrganisation && organisationParam && organisationId === null) fieldErrors[ORGANISATION_PARAM] = 'invalidId';
  const shown = data && data.organisationId === organisationId ? data : undefined;

  let content;
  if (organisationId === null)
    content = <Notice>{picksOrganisation ? t('insight.pickOrganisation') : t('insight.noOrganisation')}</Notice>;
  else if (!valid || (error instanceof ApiError && error.status === 400)) content = null;
  else if (error) content = <Notice $error role="alert">{t('insight.loadError')}</Notice>;
  else if (!shown) content = <PageSpinner label={t('insight.loading')} />;
  else {
    const range = { from: f.day(shown.from), to: f.day(shown.to) };
    content = (
      <>
        <RangeBar>
          <p>{t('insight.range', range)}</p>
          {shown.totals.sessions > 0 && (
            <ExportCsvButton organisationId={organisationId} query={filters.query} from={shown.from} to={shown.to} />
          )}
        </RangeBar>
        {shown.totals.sessions === 0 ? (
          <Notice>{t('insight.empty', range)}</Notice>
        ) : (
          <Suspense fallback={<PageSpinner label={t('insight.loading')} />}>
            <InsightSections insight={shown} />
          </Suspense>
        )}
      </>
    );
  }

  // Apply pushes a history entry, so back and forward step through the filters a user chose.
  const onApply: InsightFiltersFormProps['onApply'] = (values) => {
    const next = filtersToParams(searchParams, values);
    if (picksOrganisation) {
      if (values[ORGANISATION_PARAM]) next.set(ORGANISATION_PARAM, values[ORGANISATION_PARAM]);
      else next.delete(ORGANISATION_PARAM);
    }
    setSearchParams(next);
  };

  return (
    <>
      <InsightFiltersForm
        // Rebuilt when the URL changes, so its fields show the URL's values after back/forward.
        key={searchParams.toString()}
        values={filters.values}
        errors={fieldErrors}
        organisations={picksOrganisation ? { value: organisationParam } : null}
        products={products.data ?? []}
        learners={shown?.learners ?? []}
        onApply={onApply}
        onReset={() => setSearchParams(filtersToParams(searchParams, {}))}
      />
      {content}
    </>
  );
}

/** /report/insight (issue #23 point 4): an organisation's cohort at a glance, for its educators. */
export function InsightPage() {
  const { t } = useTranslation('reports');
  usePageTitle(t('insight.title'));
  return (
    <RequirePermission anyOf={INSIGHT_PERMISSIONS} fallback={<NotFoundView />}>
      <section>
        <h1>{t('insight.title')}</h1>
        <ReportTabs />
        <InsightView />
      </section>
    </RequirePermission>
  );
}
