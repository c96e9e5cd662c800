import { useMemo, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  ButtonAnchor,
  ButtonLink,
  MessageScreen,
  Navigate,
  Spinner,
  useLocation,
  usePageTitle,
  useProduct,
  useTranslation,
} from '@portal/shared-ui';
import { isLtiPath, paths } from '../../../app/paths';
import { readLaunchRequest, type LaunchRequest } from '../../../lib/launch-request';
import { useLaunchSession } from '../hooks/use-launch-session';
import type { LaunchFailure } from '../launch-machine';
import { isWebLink } from '../open-launch-link';

const Steps = styled.ol`
  margin: ${({ theme }) => `0 auto ${theme.space.lg}`};
  padding-left: ${({ theme }) => theme.space.lg};
  max-width: 48ch;
  text-align: left;
  color: ${({ theme }) => theme.colors.textMuted};

  li + li {
    margin-top: ${({ theme }) => theme.space.xs};
  }
`;

const Alert = styled.p`
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  border-left-width: 6px;
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.errorBackground};
  color: ${({ theme }) => theme.colors.errorText} !important;
  text-align: left;
`;

const SpinnerRow = styled.div`
  margin-bottom: ${({ theme }) => theme.space.lg};
`;

function StartOver({ lti }: { lti: boolean }) {
  const { t } = useTranslation();
  // Under LTI the learning platform starts launches; there is no catalogue to go back to.
  if (lti) return null;
  return (
    <ButtonLink to={paths.products.getHref()} variant="secondary">
      {t('simulation.launch.startOver')}
    </ButtonLink>
  );
}

/** Missing configuration (spec §2): the launch cannot even begin. */
export function ProblemStartingView({ lti, message }: { lti: boolean; message?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <MessageScreen>
      <h1>{t('simulation.launch.problemHeading')}</h1>
      {message ?? <p>{t('simulation.launch.problemText')}</p>}
      <StartOver lti={lti} />
    </MessageScreen>
  );
}

const FAILURE_MESSAGES: Record<LaunchFailure, string> = {
  create: 'simulation.launch.errors.create',
  status: 'simulation.launch.errors.status',
  close: 'simulation.launch.errors.close',
};

function LaunchSession({
  request,
  lti,
  search,
}: {
  request: LaunchRequest;
  lti: boolean;
  search: string;
}) {
  const { t } = useTranslation();
  const state = useLaunchSession({ request, lti, search });
  const mode = t(`simulation.modes.${request.mode}`);

  switch (state.phase) {
    case 'failed':
      return (
        <ProblemStartingView
          lti={lti}
          message={<Alert role="alert">{t(FAILURE_MESSAGES[state.failure])}</Alert>}
        />
      );
    case 'not_started': {
      const web = isWebLink(state.launchLink);
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('simulation.launch.launchingHeading')}</h1>
          <p>{t('simulation.launch.launchingText', { mode })}</p>
          <Steps>
            <li>{t(web ? 'simulation.launch.stepWeb' : 'simulation.launch.stepApp')}</li>
            <li>{t('simulation.launch.stepOpenLink')}</li>
            <li>{t('simulation.launch.stepStayHere')}</li>
          </Steps>
          <ButtonAnchor
            href={state.launchLink}
            {...(web ? { target: '_blank', rel: 'noopener' } : {})}
          >
            {t('simulation.launch.openSimulator')}
          </ButtonAnchor>
        </MessageScreen>
      );
    }
    case 'in_progress':
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('simulation.launch.inProgressHeading')}</h1>
          <SpinnerRow>
            <Spinner label={t('simulation.launch.waiting')} />
          </SpinnerRow>
          <p>{t('simulation.launch.inProgressText')}</p>
        </MessageScreen>
      );
    case 'closing':
    case 'redirect':
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('simulation.launch.completeHeading')}</h1>
          <SpinnerRow>
            <Spinner label={t('simulation.launch.closing')} />
          </SpinnerRow>
        </MessageScreen>
      );
    case 'creating':
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('simulation.launch.launchingHeading')}</h1>
          <SpinnerRow>
            <Spinner label={t('simulation.launch.creating')} />
          </SpinnerRow>
        </MessageScreen>
      );
  }
}

/**
 * /simulation/launch and /lti/simulation/launch (spec §2, §4). Without launch parameters there is
 * nothing to start and the user goes back to the cards.
 */
export function LaunchPage() {
  const { t } = useTranslation();
  usePageTitle(t('simulation.launch.pageTitle'));
  const { pathname, search, state, key } = useLocation();
  const { launch } = useProduct();
  const lti = isLtiPath(pathname);
  const request = useMemo(() => readLaunchRequest({ lti, search, state }), [lti, search, state]);

  if (!request) return <Navigate to={paths.products.getHref()} replace />;
  if (!request.configuration || (!launch.simulatorUrl && !request.protocol))
    return <ProblemStartingView lti={lti} />;
  // Keyed by the history entry: launching again is a new visit with a session of its own.
  return <LaunchSession key={key} request={request} lti={lti} search={search} />;
}
