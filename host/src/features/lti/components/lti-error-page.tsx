import { usePageTitle, useSearchParams, useTranslation } from '@portal/shared-ui';
import { CenteredPage } from '../../../components/centered-page';

export const PERMISSION_DENIED = 'PERMISSION_DENIED';

export function LtiErrorPage() {
  const [params] = useSearchParams();
  const { t } = useTranslation();
  usePageTitle(t('lti.errorTitle'));
  const denied = params.get('error') === PERMISSION_DENIED;
  return (
    <CenteredPage>
      <h1>{t('lti.errorTitle')}</h1>
      <p>{denied ? t('lti.permissionDenied') : t('lti.genericError')}</p>
      <p>{t('contactAdministrator')}</p>
    </CenteredPage>
  );
}
