import { useEffect, type ReactNode } from 'react';
import { LOGIN_ERROR_LOGOUT_DELAY_MS, LOGIN_ERROR_MESSAGE } from '../constants';
import { useAuth } from './use-auth';

export interface LoginGateProps {
  /** Shown while loading, unauthenticated (until the redirect leaves) and on a login error. */
  fallback?: ReactNode;
  /** What a signed-in user sees; as a route element, the router's `<Outlet />`. */
  children: ReactNode;
}

/**
 * Route element guarding everything that needs a signed-in user (docs/requirements.md#login-gate).
 *
 * It imports no router on purpose: the page's one react-router copy lives in shared-ui's facade
 * (docs/architecture.md), which shared-auth does not depend on. So the outlet comes in as
 * children, and the return path is the browser's location, which is what the portal's browser
 * routers show.
 */
export function LoginGate({ fallback = null, children }: LoginGateProps) {
  const { status, error, login, logout } = useAuth();

  useEffect(() => {
    // login() reads the location now: the return path is the one when the session was found
    // missing, not any later navigation.
    if (status === 'unauthenticated') void login();
  }, [status, login]);

  useEffect(() => {
    if (status !== 'error') return;
    console.error(LOGIN_ERROR_MESSAGE, error);
    const timer = setTimeout(() => void logout(), LOGIN_ERROR_LOGOUT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [status, error, logout]);

  if (status !== 'authenticated') return <>{fallback}</>;
  return <>{children}</>;
}
