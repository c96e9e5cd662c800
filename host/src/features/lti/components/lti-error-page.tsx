import type { LtiShownReason } from '@portal/contract';
import { usePageTitle, useSearchParams, useTranslation } from '@portal/shared-ui';
import { CenteredPage } from '../../../components/centered-page';

export const PERMISSION_DENIED = 'PERMISSION_DENIED';

/** The launch's e-mail is an existing account's and the platform is not trusted to verify it. */
const EMAIL_UNVERIFIED_PLATFORM: LtiShownReason = 'email_unverified_platform';

function messageKey(error: string | null, reason: string | null): string {
  if (error === PERMISSION_DENIED) return 'lti.permissionDenied';
  if (error === 'USER_NOT_LINKED' && reason === EMAIL_UNVERIFIED_PLATFORM) {
    return 'lti.emailUnverifiedPlatform';
  }
  return 'lti.genericError';
}

export function LtiErrorPage() {
  const [params] = useSearchParams();
  const { t } = useTranslation();
  usePageTitle(t('lti.errorTitle'));
  return (
    <CenteredPage>
      <h1>{t('lti.errorTitle')}</h1>
      <p>{t(messageKey(params.get('error'), params.get('reason')))}</p>
      <p>{t('contactAdministrator')}</p>
    </CenteredPage>
  );
}
