import styled from 'styled-components';
import { useAuth } from '@portal/shared-auth';
import { ButtonLink, usePageTitle, useTranslation } from '@portal/shared-ui';
import { paths } from '../../../app/paths';

const Screen = styled.section`
  max-width: 640px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.lg}`};
  text-align: center;

  h1 {
    margin: ${({ theme }) => `0 0 ${theme.space.md}`};
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }

  p {
    margin: ${({ theme }) => `0 0 ${theme.space.md}`};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** The session error route: the app never took over within the launch timeout (spec §2, §4). */
export function LaunchErrorPage() {
  const { t } = useTranslation();
  usePageTitle(t('simulation.launchError.heading'));
  const { user } = useAuth();
  return (
    <Screen>
      <h1>{t('simulation.launchError.heading')}</h1>
      <p>{t('simulation.launchError.text')}</p>
      <p>{t('simulation.launchError.contactAdministrator')}</p>
      {user && (
        <ButtonLink to={paths.downloads.getHref(user.id)}>
          {t('simulation.launchError.downloads')}
        </ButtonLink>
      )}
    </Screen>
  );
}
