import { useAuth } from '@portal/shared-auth';
import { ButtonLink, MessageScreen, usePageTitle, useTranslation } from '@portal/shared-ui';
import { paths } from '../../../app/paths';

/** The session error route: the app never took over within the launch timeout (spec §2, §4). */
export function LaunchErrorPage() {
  const { t } = useTranslation('simulation');
  usePageTitle(t('simulation.launchError.heading'));
  const { user } = useAuth();
  return (
    <MessageScreen>
      <h1>{t('simulation.launchError.heading')}</h1>
      <p>{t('simulation.launchError.text')}</p>
      <p>{t('simulation.launchError.contactAdministrator')}</p>
      {user && (
        <ButtonLink to={paths.downloads.getHref(user.id)}>
          {t('simulation.launchError.downloads')}
        </ButtonLink>
      )}
    </MessageScreen>
  );
}
