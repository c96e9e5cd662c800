import { useEffect } from 'react';
import { useLocation, useNavigate } from '@portal/shared-ui';
import { useAuth, usePermissions } from '@portal/shared-auth';
import { paths } from '../../app/paths';

export const brightspaceAuthHref = (redirectPath: string) =>
  `/api/brightspace-auth?${new URLSearchParams({ redirect_path: redirectPath })}`;

/**
 * Spec §4: a user the learning platform still has to authenticate leaves for it (full page); a
 * mismatch between portal and platform user goes to the mismatch page with where they were.
 * Only users who may stay on that page are sent there (others would bounce back to / forever).
 */
export function useBrightspaceGuard(assign: (url: string) => void = (url) => window.location.assign(url)) {
  const { user } = useAuth();
  const can = usePermissions();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (!user) return;
    if (user.isBrightspaceAuthRequired) {
      assign(brightspaceAuthHref(`${pathname}${search}`));
    } else if (
      user.brightspaceUserMismatch &&
      pathname !== paths.brightspaceUserMismatch.path &&
      can(['global.client_access_admin_section'])
    ) {
      navigate(paths.brightspaceUserMismatch.getHref(), { state: { from: `${pathname}${search}` } });
    }
  }, [user, pathname, search, navigate, can, assign]);
}
