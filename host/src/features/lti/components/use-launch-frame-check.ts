import { useEffect, useState } from 'react';
import { launchCookieArrived } from '../api/launch-window';
import { isFramed } from './is-framed';

/** `ok`: the launch may go on here; `blocked`: inside a frame that cannot keep the sign-in. */
export type LaunchFrameCheck = 'checking' | 'ok' | 'blocked';

/**
 * Whether the launch page can finish the sign-in where it is. Top level it always can. Inside the
 * platform's frame, browsers that block third-party cookies (Safari, Firefox, Chrome's private
 * windows) keep neither the launch's cookie nor the identity provider's: the API says whether
 * the launch's cookie arrived, and `document.hasStorageAccess()` whether storage is partitioned
 * away. When the API cannot say, the launch goes on as before.
 */
export function useLaunchFrameCheck(launchId: string | null): LaunchFrameCheck {
  const [check, setCheck] = useState<LaunchFrameCheck>(() =>
    launchId !== null && isFramed() ? 'checking' : 'ok',
  );
  useEffect(() => {
    if (check !== 'checking' || launchId === null) return;
    let live = true;
    void (async () => {
      const storage =
        typeof document.hasStorageAccess === 'function'
          ? await document.hasStorageAccess().catch(() => true)
          : true;
      const cookie = await launchCookieArrived(launchId);
      if (live) setCheck(storage === false || cookie === false ? 'blocked' : 'ok');
    })();
    return () => {
      live = false;
    };
  }, [check, launchId]);
  return check;
}
