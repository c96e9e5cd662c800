import styled from 'styled-components';
import { ButtonLink, usePageTitle, useTranslation } from '@portal/shared-ui';
import { useReportsBase } from '../../../components/reports-base';
import { paths } from '../../../config/paths';

const Wrapper = styled.section`
  max-width: 640px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.lg}`};
  text-align: center;

  p {
    margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** /report/no-report: where a closed session without a report ends (docs/requirements.md#main-area, #closing-a-session). */
export function NoReportPage() {
  const { t } = useTranslation('reports');
  const base = useReportsBase();
  usePageTitle(t('noReport.heading'));
  return (
    <Wrapper>
      <h1>{t('noReport.heading')}</h1>
      <p>{t('noReport.message')}</p>
      <ButtonLink to={paths.yourReports.getHref(base)}>{t('noReport.toReports')}</ButtonLink>
    </Wrapper>
  );
}
