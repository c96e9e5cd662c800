import { NavLink, useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { usePermissions } from '@portal/shared-auth';
import { INSIGHT_PERMISSIONS, LEARNER_REPORTS_PERMISSIONS, OWN_REPORTS_PERMISSIONS } from '../config/permissions';
import { useReportsBase } from './reports-base';
import { paths } from '../config/paths';

const Tabs = styled.ul`
  display: flex;
  /* Four tabs are wider than a 320 px phone: they wrap instead of widening the page. */
  flex-wrap: wrap;
  column-gap: ${({ theme }) => theme.space.sm};
  margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
  padding: 0;
  list-style: none;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  a {
    display: inline-block;
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
    border-bottom: 3px solid transparent;
  }

  a.active {
    color: ${({ theme }) => theme.colors.primary};
    border-bottom-color: ${({ theme }) => theme.colors.primary};
  }
`;

/** Your reports and progress, and learner reports and insight for those who may see them. */
export function ReportTabs() {
  const { t } = useTranslation('reports');
  const can = usePermissions();
  const base = useReportsBase();
  return (
    <nav aria-label={t('tabs')}>
      <Tabs>
        <li>
          <NavLink to={paths.yourReports.getHref(base)} end>
            {t('yourReports')}
          </NavLink>
        </li>
        {can(LEARNER_REPORTS_PERMISSIONS) && (
          <li>
            <NavLink to={paths.learnerReports.getHref(base)}>{t('learnerReports')}</NavLink>
          </li>
        )}
        {can(INSIGHT_PERMISSIONS) && (
          <li>
            <NavLink to={paths.insight.getHref(base)}>{t('insightTab')}</NavLink>
          </li>
        )}
        {can(OWN_REPORTS_PERMISSIONS) && (
          <li>
            <NavLink to={paths.progress.getHref(base)}>{t('progressTab')}</NavLink>
          </li>
        )}
      </Tabs>
    </nav>
  );
}
