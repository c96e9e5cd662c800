import { useEffect } from 'react';
import { useAuth, usePermissions } from '@portal/shared-auth';
import { preloadRemoteEntriesWhenIdle, preloadRemoteRoutes } from './preload';
import { REMOTE_NAMES, type RemoteName } from './remotes';

const ADMIN_SECTION = 'global.client_access_admin_section';

/** After sign-in, the entries of the areas this user can open load while the browser is idle. */
export function usePreloadRemoteEntries(): void {
  const { user } = useAuth();
  const can = usePermissions();
  const admin = can([ADMIN_SECTION]);
  const userId = user?.id;
  useEffect(() => {
    if (!userId) return undefined;
    // The admin area opens only with the admin section permission; every other area to everyone.
    return preloadRemoteEntriesWhenIdle(REMOTE_NAMES.filter((name) => admin || name !== 'admin'));
  }, [userId, admin]);
}

/** Props for an area's sidebar link: pointing at it or tabbing to it loads the area's routes. */
export function preloadOnIntent(name: RemoteName) {
  const preload = () => preloadRemoteRoutes(name);
  return { onMouseEnter: preload, onFocus: preload };
}
