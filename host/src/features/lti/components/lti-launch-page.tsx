import { useCallback, useEffect } from 'react';
import { useAuth, usePermissions } from '@portal/shared-auth';
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
import { useRosterSummary } from '../api/get-roster-summary';
import { LtiRosterPanel } from './lti-roster-panel';

/**
 * Entry from the learning platform (docs/requirements.md#outside-the-layout). The launch itself belongs to the simulation area,
 * which the host mounts under /lti/simulation; this page only makes sure the user is signed in.
 * An instructor whose launch's course offers a roster (NRPS) stays here with the roster panel and
 * continues by a button; everyone else goes on at once.
 */
export function LtiLaunchPage() {
  const { t } = useTranslation();
  usePageTitle(t('lti.launchTitle'));
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { status, login } = useAuth();
  const launchId = params.get('launchId');
  const hasPermission = usePermissions();
  // Only educators and administrators may sync; a learner's launch never asks.
  const mayHaveRoster = status === 'authenticated' && hasPermission(['global.view_org_reports']);
  const roster = useRosterSummary(mayHaveRoster ? launchId : null);
  const showRoster = mayHaveRoster && roster.data !== undefined;
  const goOn = !mayHaveRoster || roster.error !== undefined;
  const { mutate } = roster;
  const onSynced = useCallback(() => void mutate(), [mutate]);

  const continueToSimulation = useCallback(() => {
    if (launchId) {
      navigate(`${paths.ltiSimulationLaunch.getHref()}${search}`, {
        replace: true,
        state: {
          launchId,
          configuration: params.get('configuration'),
          productId: params.get('productId'),
        },
      });
    }
  }, [launchId, search, params, navigate]);

  useEffect(() => {
    if (status === 'authenticated' && goOn) continueToSimulation();
  }, [status, goOn, continueToSimulation]);

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
  if (showRoster && launchId && roster.data) {
    return (
      <CenteredPage>
        <h1>{t('lti.roster.pageHeading')}</h1>
        <LtiRosterPanel launchId={launchId} summary={roster.data} onSynced={onSynced} />
        <Button onClick={continueToSimulation}>{t('lti.roster.continue')}</Button>
      </CenteredPage>
    );
  }
  return <PageSpinner />;
}
