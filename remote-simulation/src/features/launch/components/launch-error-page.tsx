import { useAuth } from '@portal/shared-auth';
import { ButtonLink, MessageScreen, usePageTitle, useTranslation } from '@portal/shared-ui';
import { paths } from '../../../config/paths';

/** The session error route: the app never took over within the launch timeout (docs/requirements.md#main-area, #simulation-session). */
export function LaunchErrorPage() {
  const { t } = useTranslation('simulation');
  usePageTitle(t('launchError.heading'));
  const { user } = useAuth();
  return (
    <MessageScreen>
      <h1>{t('launchError.heading')}</h1>
      <p>{t('launchError.text')}</p>
      <p>{t('launchError.contactAdministrator')}</p>
      {user && (
        <ButtonLink to={paths.downloads.getHref(user.id)}>
          {t('launchError.downloads')}
        </ButtonLink>
      )}
    </MessageScreen>
  );
}
