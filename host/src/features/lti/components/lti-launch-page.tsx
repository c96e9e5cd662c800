import { useEffect } from 'react';
import { useAuth } from '@portal/shared-auth';
import {
  Button,
  PageSpinner,
  useLocation,
  useNavigate,
  usePageTitle,
  useSearchParams,
  useTranslation,
} from '@portal/shared-ui';
import { CenteredPage } from '../../../components/centered-page';
import { paths } from '../../../config/paths';

/**
 * Entry from the learning platform (docs/requirements.md#outside-the-layout). The launch itself belongs to the simulation area,
 * which the host mounts under /lti/simulation; this page only makes sure the user is signed in.
 */
export function LtiLaunchPage() {
  const { t } = useTranslation();
  usePageTitle(t('lti.launchTitle'));
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { status, login } = useAuth();
  const launchId = params.get('launchId');

  useEffect(() => {
    if (launchId && status === 'authenticated') {
      navigate(`${paths.ltiSimulationLaunch.getHref()}${search}`, {
        replace: true,
        state: {
          launchId,
          configuration: params.get('configuration'),
          productId: params.get('productId'),
        },
      });
    }
  }, [launchId, status, search, params, navigate]);

  if (!launchId || status === 'error') {
    return (
      <CenteredPage>
        <h1>{t('lti.launchFailedHeading')}</h1>
        <p>{t('lti.launchFailedMessage')}</p>
        <Button variant="link" onClick={() => void navigate(-1)}>
          {t('lti.goBack')}
        </Button>
      </CenteredPage>
    );
  }
  if (status === 'unauthenticated') {
    return (
      <CenteredPage>
        <h1>{t('lti.loginHeading')}</h1>
        <p>{t('lti.loginMessage')}</p>
        <Button onClick={() => void login(`${pathname}${search}`)}>{t('lti.loginButton')}</Button>
      </CenteredPage>
    );
  }
  return <PageSpinner />;
}
