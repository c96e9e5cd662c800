import { useCallback, useEffect, useState } from 'react';
import { LTI_FRAME_KEY_FRAGMENT } from '@portal/contract';
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
import { useLaunchOwner } from '../api/get-launch-owner';
import { useCourseGradeRelease } from '../api/course-grade-release';
import { useRosterSummary } from '../api/get-roster-summary';
import { useLaunchSignIn } from '../hooks/use-launch-sign-in';
import { LtiBlockedFrame } from './lti-blocked-frame';
import { LtiGradeReleasePanel } from './lti-grade-release-panel';
import { LtiMismatch } from './lti-mismatch';
import { LtiRosterPanel } from './lti-roster-panel';
import { takeFragmentValue } from './take-fragment-value';
import { useLaunchFrameCheck } from './use-launch-frame-check';

/**
 * Entry from the learning platform (docs/requirements.md#outside-the-layout). The launch itself belongs to the simulation area,
 * which the host mounts under /lti/simulation; this page only makes sure the user is signed in: by
 * the launch itself when the API offers it (`idp`, useLaunchSignIn), else by the password.
 * An instructor whose launch came from a course stays here with the course's grade release and,
 * where the course offers a roster (NRPS), the roster panel, and continues by a button; everyone
 * else goes on at once. Inside the platform's frame, where the
 * browser may keep no cookie of ours, it first checks that the sign-in can happen here and offers
 * "Open in a new window" when it cannot. Signed in, it first asks whether the launch is the
 * user's own: someone else's launch is the mismatch screen, never a silent switch of users.
 */
export function LtiLaunchPage() {
  const { t } = useTranslation();
  usePageTitle(t('lti.launchTitle'));
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { status, login } = useAuth();
  const launchId = params.get('launchId');
  // The key to ask for a new-window ticket, read (and removed from the address) first of all.
  const [frameKey] = useState(() => takeFragmentValue(LTI_FRAME_KEY_FRAGMENT));
  const frame = useLaunchFrameCheck(launchId);
  const returnPath = `${pathname}${search}`;
  const signIn = useLaunchSignIn(launchId, params.get('idp'), returnPath, frame === 'ok');
  const hasPermission = usePermissions();
  const owner = useLaunchOwner(status === 'authenticated' ? launchId : null);
  const mine = owner.data?.mine === true;
  // Only educators and administrators may sync; a learner's launch never asks.
  const mayHaveRoster = mine && hasPermission(['global.view_org_reports']);
  const roster = useRosterSummary(mayHaveRoster ? launchId : null);
  const gradeRelease = useCourseGradeRelease(mayHaveRoster ? launchId : null);
  const settled = (answer: { data?: unknown; error?: unknown }) =>
    answer.data !== undefined || answer.error !== undefined;
  // The instructor's page waits for both answers, so it does not grow a panel while being read.
  const showCourse =
    mayHaveRoster &&
    settled(roster) &&
    settled(gradeRelease) &&
    (roster.data !== undefined || gradeRelease.data !== undefined);
  const goOn = !mayHaveRoster || (roster.error !== undefined && gradeRelease.error !== undefined);
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
    if (mine && goOn && frame === 'ok') continueToSimulation();
  }, [mine, goOn, frame, continueToSimulation]);

  if (!launchId || status === 'error' || owner.error !== undefined) {
    return (
      <CenteredPage>
        <h1>{t('lti.launchFailedHeading')}</h1>
        <p>{owner.error !== undefined ? t('lti.mismatch.checkFailed') : t('lti.launchFailedMessage')}</p>
        <Button variant="link" onClick={() => void navigate(-1)}>
          {t('lti.goBack')}
        </Button>
      </CenteredPage>
    );
  }
  if (frame === 'checking') return <PageSpinner />;
  if (frame === 'blocked') {
    return (
      <CenteredPage>
        <LtiBlockedFrame launchId={launchId} frameKey={frameKey} />
      </CenteredPage>
    );
  }
  if (status === 'unauthenticated' && signIn.starting) {
    return <PageSpinner label={t('lti.signingIn')} />;
  }
  if (status === 'unauthenticated') {
    return (
      <CenteredPage>
        <h1>{t('lti.loginHeading')}</h1>
        {signIn.failed && <p role="alert">{t('lti.signInByLaunchFailed')}</p>}
        <p>{t('lti.loginMessage')}</p>
        <Button onClick={() => void login(returnPath)}>{t('lti.loginButton')}</Button>
      </CenteredPage>
    );
  }
  if (owner.data?.mine === false) {
    return (
      <CenteredPage>
        <LtiMismatch launchId={launchId} returnPath={returnPath} />
      </CenteredPage>
    );
  }
  if (showCourse && launchId) {
    return (
      <CenteredPage>
        <h1>{t('lti.roster.pageHeading')}</h1>
        {roster.data && <LtiRosterPanel launchId={launchId} summary={roster.data} onSynced={onSynced} />}
        {gradeRelease.data && <LtiGradeReleasePanel launchId={launchId} setting={gradeRelease.data} />}
        <Button onClick={continueToSimulation}>{t('lti.roster.continue')}</Button>
      </CenteredPage>
    );
  }
  return <PageSpinner />;
}
