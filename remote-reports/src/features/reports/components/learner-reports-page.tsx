import { useTranslation } from 'react-i18next';
import { RequirePermission } from '@portal/shared-auth';
import { NotFoundView, usePageTitle } from '@portal/shared-ui';
import { LEARNER_REPORTS_PERMISSIONS } from '../permissions';
import { ReportTabs } from './report-tabs';

export function LearnerReportsPage() {
  const { t } = useTranslation();
  usePageTitle(t('reports.learnerReports'));
  return (
    <RequirePermission anyOf={LEARNER_REPORTS_PERMISSIONS} fallback={<NotFoundView />}>
      <section>
        <h1>{t('reports.learnerReports')}</h1>
        <ReportTabs />
        <p>{t('reports.learnerReportsIntro')}</p>
      </section>
    </RequirePermission>
  );
}
