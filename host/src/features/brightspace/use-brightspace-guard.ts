import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from '@portal/shared-ui';
import { useAuth } from '@portal/shared-auth';
import { paths } from '../../config/paths';
import { useStartBrightspaceAuth } from './api/start-brightspace-auth';

const DISMISSED_KEY = 'portal.brightspaceMismatchDismissed';

/**
 * The mismatch page sends users without the admin-section permission on to / (docs/requirements.md#main-area). The
 * guard must not send them straight back, or they would bounce between the two for ever: the
 * page notes that this user was turned away, for this tab, until the mismatch ends.
 */
export function dismissBrightspaceMismatch(userId: string) {
  try {
    sessionStorage.setItem(DISMISSED_KEY, userId);
  } catch {
    // Storage refused (private mode, quota): the guard then cannot tell, and the page's own
    // redirect still applies.
  }
}

function mismatchDismissed(userId: string): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === userId;
  } catch {
    return false;
  }
}

function forgetDismissal() {
  try {
    sessionStorage.removeItem(DISMISSED_KEY);
  } catch {
    // Nothing stored then either.
  }
}

/**
 * docs/requirements.md#learning-platform-auth: a user Brightspace still has to authenticate leaves for it
 * (full page, back to where they were); every user on a mismatch goes to the mismatch page with
 * where they were as state `from`.
 */
export function useBrightspaceGuard(assign: (url: string) => void = (url) => window.location.assign(url)) {
  const { user } = useAuth();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const startAuth = useStartBrightspaceAuth();
  // One start per page: the effect re-runs on every navigation while the browser is leaving.
  const leaving = useRef(false);

  useEffect(() => {
    if (!user) return;
    const here = `${pathname}${search}`;
    if (user.brightspaceUserMismatch) {
      if (pathname === paths.brightspaceUserMismatch.path || mismatchDismissed(user.id)) return;
      navigate(paths.brightspaceUserMismatch.getHref(), { state: { from: here } });
      return;
    }
    forgetDismissal();
    if (!user.isBrightspaceAuthRequired || leaving.current) return;
    leaving.current = true;
    startAuth(here).then(assign, (error: unknown) => {
      // The portal stays usable; the next page load tries again.
      console.error('Starting the Brightspace sign-in failed', error);
    });
  }, [user, pathname, search, navigate, startAuth, assign]);
}
