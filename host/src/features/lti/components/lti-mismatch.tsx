import styled from 'styled-components';
import { useAuth } from '@portal/shared-auth';
import { Button, useNavigate, usePageTitle, useTranslation } from '@portal/shared-ui';
import { paths } from '../../../config/paths';
import { logoutAndContinueState } from '../../../lib/logout-continuation';
import { forgetLaunchSignInTry } from '../hooks/use-launch-sign-in';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  margin-top: ${({ theme }) => theme.space.lg};
`;

/**
 * Issue #22 point 1: the launch was made by someone other than the portal user signed in to this
 * browser. The portal never switches users silently (one person's results must not land in
 * another's account); the user chooses: sign out of the portal and the identity provider, then
 * come back to this launch page, where the launch signs its own user in (its broker binding lasts
 * minutes and is still unspent, as no sign-in used it) — or go back to the course.
 */
export function LtiMismatch({ launchId, returnPath }: { launchId: string; returnPath: string }) {
  const { t } = useTranslation();
  usePageTitle(t('lti.mismatch.title'));
  const { user } = useAuth();
  const navigate = useNavigate();
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';

  const signOutAndContinue = () => {
    // An earlier try that came back as the other user must not count as this launch's failure.
    forgetLaunchSignInTry(launchId);
    navigate(paths.logout.getHref(), { state: logoutAndContinueState(returnPath) });
  };

  return (
    <>
      <h1>{t('lti.mismatch.title')}</h1>
      <p>{t('lti.mismatch.explanation', { name })}</p>
      <p>{t('lti.mismatch.continueHint')}</p>
      <Actions>
        <Button onClick={signOutAndContinue}>{t('lti.mismatch.signOutAndContinue')}</Button>
        <Button variant="secondary" onClick={() => void navigate(-1)}>
          {t('lti.mismatch.goBack')}
        </Button>
      </Actions>
    </>
  );
}
