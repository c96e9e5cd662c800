import { useTranslation } from 'react-i18next';
import styled from 'styled-components';
import { usePageTitle } from '@portal/shared-ui';

const Intro = styled.p`
  max-width: 60ch;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** Landing screen of /simulation; product cards arrive with the simulation issue. */
export function SimulationsPage() {
  const { t } = useTranslation();
  usePageTitle(t('simulation.pageTitle'));
  return (
    <section>
      <h1>{t('simulation.heading')}</h1>
      <Intro>{t('simulation.intro')}</Intro>
    </section>
  );
}
