import { useEffect, useRef, useState } from 'react';
import { useAuth } from '@portal/shared-auth';
import { Button, PageSpinner, useLocation, useNavigate, usePageTitle, useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { CenteredPage } from '../../../components/centered-page';
import { useRuntimeConfig } from '../../../config/runtime-config';
import { brightspaceLogoutHref, paths } from '../../../config/paths';
import { continuationOf, markContinuation, takeContinuation } from '../../../lib/logout-continuation';
import { hasLogoutIntent, markLogoutPending, takeLogoutPending } from '../lib/logout-intent';

export const NO_BRIGHTSPACE_MESSAGE = 'No Brightspace address provided';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  margin-top: ${({ theme }) => theme.space.lg};
`;

type Step = { kind: 'working' } | { kind: 'confirm'; what: 'portal' | 'brightspace' };

/**
 * docs/requirements.md#outside-the-layout: signed in → sign out at the identity provider, which returns here; signed out → leave
 * the learning platform too when one is linked, else go home. Issue #20: only on purpose. The
 * portal's own menu carries LOGOUT_INTENT_STATE and the identity provider's return is marked
 * before leaving; any other arrival (a link or redirect from another site) asks "Log out?" first,
 * as Keycloak's logout confirmation does.
 */
export function LogoutPage({ assign = (url: string) => window.location.assign(url) }: { assign?: (url: string) => void }) {
  const { status, logout } = useAuth();
  const { brightspaceHost } = useRuntimeConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'working' });
  const decided = useRef(false);

  const signOut = () => {
    markLogoutPending();
    const continueTo = continuationOf(location.state);
    if (continueTo) markContinuation(continueTo);
    void logout();
  };
  const leave = () => {
    if (brightspaceHost) {
      assign(brightspaceLogoutHref(brightspaceHost));
    } else {
      console.error(NO_BRIGHTSPACE_MESSAGE);
      navigate(paths.home.getHref(), { replace: true });
    }
  };

  useEffect(() => {
    if (decided.current || status === 'loading') return;
    decided.current = true;
    if (status === 'authenticated') {
      if (hasLogoutIntent(location.state)) signOut();
      else setStep({ kind: 'confirm', what: 'portal' });
    } else {
      const ours = takeLogoutPending();
      const continueTo = takeContinuation();
      // "Sign out and continue" (the LTI mismatch screen) goes on where it asked to, not to Brightspace.
      if (ours && continueTo) navigate(continueTo, { replace: true });
      // Our own sign-out coming back, or nothing left to sign out of: no one to ask.
      else if (ours || !brightspaceHost) leave();
      else setStep({ kind: 'confirm', what: 'brightspace' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- decided once, on the first settled auth state
  }, [status]);

  if (step.kind === 'working') return <PageSpinner />;
  return (
    <LogoutConfirmation
      question={step.what === 'portal' ? t('logout.confirmPortal') : t('logout.confirmBrightspace')}
      onConfirm={() => {
        setStep({ kind: 'working' });
        if (step.what === 'portal') signOut();
        else leave();
      }}
      onCancel={() => navigate(paths.home.getHref(), { replace: true })}
    />
  );
}

function LogoutConfirmation({ question, onConfirm, onCancel }: { question: string; onConfirm(): void; onCancel(): void }) {
  const { t } = useTranslation();
  usePageTitle(t('logout.confirmTitle'));
  return (
    <CenteredPage>
      <h1>{t('logout.confirmTitle')}</h1>
      <p>{question}</p>
      <Actions>
        <Button onClick={onConfirm}>{t('logout.confirm')}</Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('logout.cancel')}
        </Button>
      </Actions>
    </CenteredPage>
  );
}
