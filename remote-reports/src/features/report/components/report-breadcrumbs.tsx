import type { Permission, Report } from '@portal/contract';
import { usePermissions } from '@portal/shared-auth';
import { type BreadcrumbItem, Breadcrumbs, useTranslation } from '@portal/shared-ui';
import { useReportsBase } from '../../../components/reports-base';
import { LEARNER_REPORTS_PERMISSIONS, OWN_REPORTS_PERMISSIONS } from '../../../config/permissions';
import { paths } from '../../../config/paths';

/**
 * docs/requirements.md#breadcrumbs of /report/{reportId}: the list the report belongs to ('Your reports' for
 * its owner, 'Learner reports' otherwise), then the report's description. A crumb whose list the
 * user may not open is left out.
 */
export function ReportBreadcrumbs({ report }: { report: Pick<Report, 'isOwner' | 'description'> }) {
  const { t } = useTranslation('reports');
  const base = useReportsBase();
  const can = usePermissions();
  const root: BreadcrumbItem & { anyOf: readonly Permission[] } = report.isOwner
    ? { label: t('yourReports'), to: paths.yourReports.getHref(base), anyOf: OWN_REPORTS_PERMISSIONS }
    : { label: t('learnerReports'), to: paths.learnerReports.getHref(base), anyOf: LEARNER_REPORTS_PERMISSIONS };
  const items: BreadcrumbItem[] = [
    ...(can(root.anyOf) ? [{ label: root.label, to: root.to }] : []),
    { label: report.description },
  ];
  return <Breadcrumbs items={items} />;
}
