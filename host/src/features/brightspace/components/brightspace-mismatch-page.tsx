import { useEffect, useState } from 'react';
import { useAuth, usePermissions } from '@portal/shared-auth';
import {
  Button,
  ErrorBanner,
  NewTabLink,
  useLocation,
  useNavigate,
  usePageTitle,
  useTranslation,
} from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../config/runtime-config';
import { brightspaceLogoutHref, paths } from '../../../config/paths';
import { useResetBrightspaceAuth } from '../api/reset-brightspace-auth';
import { dismissBrightspaceMismatch } from '../use-brightspace-guard';

function fromState(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  const local = typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\');
  return local ? from : paths.home.getHref();
}

export function BrightspaceMismatchPage() {
  const { t } = useTranslation();
  usePageTitle(t('mismatch.title'));
  const can = usePermissions();
  const { user, reloadUser } = useAuth();
  const { state } = useLocation();
  const navigate = useNavigate();
  const { brightspaceHost } = useRuntimeConfig();
  const reset = useResetBrightspaceAuth();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const mayStay = can(['global.client_access_admin_section']);
  useEffect(() => {
    if (mayStay || !user) return;
    // docs/requirements.md#screens: only the admin section's users stay; the guard must not send this one back here.
    dismissBrightspaceMismatch(user.id);
    navigate(paths.home.getHref(), { replace: true });
  }, [mayStay, user, navigate]);

  if (!mayStay) return null;

  const onReset = async () => {
    setBusy(true);
    try {
      const result = await reset();
      if (result.isSuccess) {
        // whoami no longer reports the mismatch; with the old user the guard would come back here.
        await reloadUser();
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
