import { lazy, Suspense } from 'react';
import { RequirePermission } from '@portal/shared-auth';
import { NotFoundView, PageSpinner, usePageTitle, useTranslation } from '@portal/shared-ui';
import { OWN_REPORTS_PERMISSIONS } from '../../../config/permissions';
import { ReportTabs } from '../../../components/report-tabs';
import { useProgress } from '../api/get-progress';
import { Notice } from '../../../components/notice';

// The charts: only this screen (and insight) loads them.
const ProgressTrends = lazy(async () => ({ default: (await import('./progress-trends')).ProgressTrends }));

function ProgressView() {
  const { t } = useTranslation('reports');
  const { data, error } = useProgress();
  if (error) return <Notice $error role="alert">{t('progress.loadError')}</Notice>;
  if (!data) return <PageSpinner label={t('progress.loading')} />;
  const projections = data.projections.filter((p) => p.points.length > 0);
  if (projections.length === 0) return <Notice>{t('progress.empty')}</Notice>;
  return (
    <Suspense fallback={<PageSpinner label={t('progress.loading')} />}>
      <p>{t('progress.intro')}</p>
      <ProgressTrends projections={projections} />
    </Suspense>
  );
}

/** /report/progress (issue #23 point 4): a learner's own marks per projection over time. */
export function ProgressPage() {
  const { t } = useTranslation('reports');
  usePageTitle(t('progress.title'));
  return (
    <RequirePermission anyOf={OWN_REPORTS_PERMISSIONS} fallback={<NotFoundView />}>
      <section>
        <h1>{t('progress.title')}</h1>
        <ReportTabs />
        <ProgressView />
      </section>
    </RequirePermission>
  );
}
