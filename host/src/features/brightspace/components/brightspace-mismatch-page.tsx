import { useState } from 'react';
import { usePermissions } from '@portal/shared-auth';
import {
  Button,
  ErrorBanner,
  Navigate,
  NewTabLink,
  useLocation,
  useNavigate,
  usePageTitle,
  useTranslation,
} from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../app/runtime-config';
import { brightspaceLogoutHref, paths } from '../../../app/paths';
import { useResetBrightspaceAuth } from '../api/reset-brightspace-auth';

function fromState(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : paths.home.getHref();
}

export function BrightspaceMismatchPage() {
  const { t } = useTranslation();
  usePageTitle(t('mismatch.title'));
  const can = usePermissions();
  const { state } = useLocation();
  const navigate = useNavigate();
  const { brightspaceHost } = useRuntimeConfig();
  const reset = useResetBrightspaceAuth();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!can(['global.client_access_admin_section'])) return <Navigate to={paths.home.getHref()} replace />;

  const onReset = async () => {
    setBusy(true);
    try {
      const result = await reset();
      if (result.isSuccess) {
        navigate(fromState(state), { replace: true });
        return;
      }
      setFailed(true);
    } catch (error) {
      console.error('Resetting the Brightspace session failed', error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>{t('mismatch.title')}</h1>
      <p>{t('mismatch.explanation')}</p>
      {failed && <ErrorBanner errors={[t('mismatch.resetFailed')]} />}
      <ol>
        <li>
          <p>{t('mismatch.step1')}</p>
          {brightspaceHost ? (
            <NewTabLink href={brightspaceLogoutHref(brightspaceHost)}>
              {t('mismatch.logoutLink')}
            </NewTabLink>
          ) : (
            <p>{t('brightspaceNotLinked')}</p>
          )}
        </li>
        <li>
          <p>{t('mismatch.step2')}</p>
          <Button onClick={() => void onReset()} disabled={busy}>
            {t('mismatch.reset')}
          </Button>
        </li>
      </ol>
    </>
  );
}
