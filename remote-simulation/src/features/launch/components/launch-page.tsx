import { useMemo, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  Button,
  ButtonAnchor,
  ButtonLink,
  MessageScreen,
  Navigate,
  Spinner,
  useLocation,
  usePageTitle,
  useProduct,
  useTranslation,
  VisuallyHidden,
} from '@portal/shared-ui';
import { isLtiPath, paths } from '../../../config/paths';
import { readLaunchRequest, type LaunchRequest } from '../../../lib/launch-request';
import { useProducts } from '../../../api/get-products';
import { useLaunchSession } from '../hooks/use-launch-session';
import { canBuildLaunchLink, type LaunchLinkSource } from '../launch-link';
import type { LaunchFailure } from '../launch-machine';

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
  const { t } = useTranslation('simulation');
  // Under LTI the learning platform starts launches; there is no catalogue to go back to.
  if (lti) return null;
  return (
    <ButtonLink to={paths.products.getHref()} variant="secondary">
      {t('launch.startOver')}
    </ButtonLink>
  );
}

/** Missing configuration (docs/requirements.md#main-area): the launch cannot even begin. */
export function ProblemStartingView({ lti, message }: { lti: boolean; message?: ReactNode }) {
  const { t } = useTranslation('simulation');
  return (
    <MessageScreen>
      <h1>{t('launch.problemHeading')}</h1>
      {message ?? <p>{t('launch.problemText')}</p>}
      <StartOver lti={lti} />
    </MessageScreen>
  );
}

type ProblemReason = LaunchFailure | 'products' | 'unknownProduct';

const FAILURE_MESSAGES: Record<ProblemReason, string> = {
  create: 'launch.errors.create',
  link: 'launch.errors.link',
  products: 'launch.errors.products',
  unknownProduct: 'launch.errors.unknownProduct',
  status: 'launch.errors.status',
  complete: 'launch.errors.complete',
  close: 'launch.errors.close',
};

function ProblemView({ lti, reason }: { lti: boolean; reason: ProblemReason }) {
  const { t } = useTranslation('simulation');
  return (
    <ProblemStartingView
      lti={lti}
      message={<Alert role="alert">{t(FAILURE_MESSAGES[reason])}</Alert>}
    />
  );
}

function PreparingView() {
  const { t } = useTranslation('simulation');
  return (
    <MessageScreen aria-live="polite">
      <h1>{t('launch.launchingHeading')}</h1>
      <SpinnerRow>
        <Spinner label={t('launch.creating')} />
      </SpinnerRow>
    </MessageScreen>
  );
}

function LaunchSession({
  request,
  lti,
  search,
  link,
}: {
  request: LaunchRequest;
  lti: boolean;
  search: string;
  link: LaunchLinkSource;
}) {
  const { t } = useTranslation('simulation');
  const { state, finish } = useLaunchSession({ request, lti, search, link });
  const mode = t(`modes.${request.mode}`);

  switch (state.phase) {
    case 'failed':
      return <ProblemView lti={lti} reason={state.failure} />;
    case 'not_started': {
      const web = state.launchLink.kind === 'web';
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('launch.launchingHeading')}</h1>
          <p>{t('launch.launchingText', { mode })}</p>
          <Steps>
            <li>{t(web ? 'launch.stepWeb' : 'launch.stepApp')}</li>
            <li>{t('launch.stepOpenLink')}</li>
            <li>{t('launch.stepStayHere')}</li>
          </Steps>
          <ButtonAnchor
            href={state.launchLink.href}
            {...(web ? { target: '_blank', rel: 'noopener' } : {})}
          >
            {t('launch.openSimulator')}
            {web && <VisuallyHidden> ({t('common.opensInNewTab')})</VisuallyHidden>}
          </ButtonAnchor>
        </MessageScreen>
      );
    }
    case 'in_progress':
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('launch.inProgressHeading')}</h1>
          <SpinnerRow>
            <Spinner label={t('launch.waiting')} />
          </SpinnerRow>
          <p>{t('launch.inProgressText')}</p>
          <p>{t('launch.finishedHint')}</p>
          <Button type="button" variant="secondary" onClick={finish}>
            {t('launch.finished')}
          </Button>
        </MessageScreen>
      );
    case 'completing':
    case 'closing':
    case 'redirect':
      return (
        <MessageScreen aria-live="polite">
          <h1>{t('launch.completeHeading')}</h1>
          <SpinnerRow>
            <Spinner label={t('launch.closing')} />
          </SpinnerRow>
        </MessageScreen>
      );
    case 'creating':
      return <PreparingView />;
  }
}

/**
 * Finds the product in the records the API answers: its launchProtocols are what the launch link
 * may use, and the launch query's `protocol` picks one of them (launch-link.ts). Waits for them.
 */
function ProductLaunch({
  request,
  lti,
  search,
  historyKey,
}: {
  request: LaunchRequest;
  lti: boolean;
  search: string;
  historyKey: string;
}) {
  const { launch } = useProduct();
  const { data: products, error } = useProducts();
  const link = useMemo((): LaunchLinkSource | null => {
    const product = products?.find((candidate) => candidate.id === request.productId);
    return product
      ? { simulatorUrl: launch.simulatorUrl, product, protocol: request.protocol }
      : null;
  }, [products, request.productId, request.protocol, launch.simulatorUrl]);

  // Data kept from an earlier answer wins over a failed revalidation: a running launch stays.
  if (!products) return error ? <ProblemView lti={lti} reason="products" /> : <PreparingView />;
  if (!link) return <ProblemView lti={lti} reason="unknownProduct" />;
  // A launch query naming a scheme outside the product's allow-list was altered on its way (issue
  // #7: `protocol=javascript:…`): refused before any session exists, rather than silently corrected.
  if (!canBuildLaunchLink(link)) return <ProblemView lti={lti} reason="link" />;
  // Keyed by the history entry: launching again is a new visit with a session of its own.
  return <LaunchSession key={historyKey} request={request} lti={lti} search={search} link={link} />;
}

/**
 * /simulation/launch and /lti/simulation/launch (docs/requirements.md#main-area, #behaviour). Without launch parameters there is
 * nothing to start and the user goes back to the cards.
 */
export function LaunchPage() {
  const { t } = useTranslation('simulation');
  usePageTitle(t('launch.pageTitle'));
  const { pathname, search, state, key } = useLocation();
  const lti = isLtiPath(pathname);
  const request = useMemo(() => readLaunchRequest({ lti, search, state }), [lti, search, state]);

  if (!request) return <Navigate to={paths.products.getHref()} replace />;
  if (!request.configuration) return <ProblemStartingView lti={lti} />;
  return <ProductLaunch request={request} lti={lti} search={search} historyKey={key} />;
}
