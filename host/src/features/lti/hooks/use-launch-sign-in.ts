import { useEffect, useState } from 'react';
import { useAuth } from '@portal/shared-auth';

/** An identity provider alias as the API names it (LTI_BROKER_ALIAS); anything else is no hint. */
const ALIAS = /^[A-Za-z0-9_-]{1,64}$/;
const TRIED_PREFIX = 'lti-launch-sign-in:';

function alreadyTried(launchId: string): boolean {
  try {
    return sessionStorage.getItem(`${TRIED_PREFIX}${launchId}`) !== null;
  } catch {
    // Storage blocked: without the mark a failed sign-in could loop, so try none.
    return true;
  }
}

function markTried(launchId: string): boolean {
  try {
    sessionStorage.setItem(`${TRIED_PREFIX}${launchId}`, '1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Lets the launch sign in once more in this tab: "Sign out and continue" on the mismatch screen,
 * where an earlier try came back as the identity provider's other signed-in user.
 */
export function forgetLaunchSignInTry(launchId: string): void {
  try {
    sessionStorage.removeItem(`${TRIED_PREFIX}${launchId}`);
  } catch {
    // Storage blocked: nothing was marked either.
  }
}

/**
 * A launch is a sign-in (issue #22 point 1): a signed-out browser that just made a launch starts
 * the portal's normal sign-in with `kc_idp_hint=<idp>` and the launch as `login_hint`, so the
 * identity provider signs the launched user in through the API's broker, without a form. Once
 * per launch in this tab: back here still signed out means it did not work (`failed`), and the
 * page offers the password sign-in instead of trying again.
 */
export function useLaunchSignIn(
  launchId: string | null,
  idp: string | null,
  returnPath: string,
  /** False while the page may not sign in where it is (a frame that keeps no cookie). */
  enabled = true,
) {
  const { status, login } = useAuth();
  const hint = idp !== null && ALIAS.test(idp) ? idp : null;
  const [failed] = useState(() => launchId !== null && hint !== null && alreadyTried(launchId));
  const starting =
    enabled && status === 'unauthenticated' && launchId !== null && hint !== null && !failed;

  useEffect(() => {
    if (!starting || !launchId || !hint) return;
    if (markTried(launchId)) void login(returnPath, { idpHint: hint, loginHint: launchId });
  }, [starting, launchId, hint, login, returnPath]);

  return { starting, failed };
}
