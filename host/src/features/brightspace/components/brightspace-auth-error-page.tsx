import { Link, usePageTitle, useSearchParams, useTranslation } from '@portal/shared-ui';
import { BRIGHTSPACE_AUTH_ERRORS, type BrightspaceAuthError } from '@portal/contract';
import { CenteredPage } from '../../../components/centered-page';
import { paths } from '../../../config/paths';

const isKnown = (value: string | null): value is BrightspaceAuthError =>
  (BRIGHTSPACE_AUTH_ERRORS as readonly (string | null)[]).includes(value);

/**
 * Where the API's Brightspace sign-in ends when it fails (`?error=` one of
 * BRIGHTSPACE_AUTH_ERRORS). Outside the layout, so the guard does not start the sign-in again
 * at once: the user chooses to try again.
 */
export function BrightspaceAuthErrorPage() {
  const [params] = useSearchParams();
  const { t } = useTranslation();
  usePageTitle(t('brightspaceAuth.errorTitle'));
  const error = params.get('error');
  const reason = isKnown(error) ? error : 'BRIGHTSPACE_FAILED';
  return (
    <CenteredPage>
      <h1>{t('brightspaceAuth.errorTitle')}</h1>
      <p>{t(`brightspaceAuth.errors.${reason}`)}</p>
      <p>{t('contactAdministrator')}</p>
      <p>
        <Link to={paths.home.getHref()}>{t('brightspaceAuth.tryAgain')}</Link>
      </p>
    </CenteredPage>
  );
}
