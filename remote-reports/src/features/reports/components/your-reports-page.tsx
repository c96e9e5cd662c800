import { useTranslation } from 'react-i18next';
import { usePageTitle } from '@portal/shared-ui';
import { ReportTabs } from './report-tabs';

/** Landing screen of /report; the report list arrives with the reports issue. */
export function YourReportsPage() {
  const { t } = useTranslation();
  usePageTitle(t('reports.yourReports'));
  return (
    <section>
      <h1>{t('reports.yourReports')}</h1>
      <ReportTabs />
      <p>{t('reports.yourReportsIntro')}</p>
    </section>
  );
}
