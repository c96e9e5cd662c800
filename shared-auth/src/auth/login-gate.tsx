import { useEffect, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { LOGIN_ERROR_LOGOUT_DELAY_MS, LOGIN_ERROR_MESSAGE } from '../constants';
import { useAuth } from './use-auth';

export interface LoginGateProps {
  /** Shown while loading, unauthenticated (until the redirect leaves) and on a login error. */
  fallback?: ReactNode;
  /** Rendered instead of `<Outlet />` when given (e.g. a layout that has its own outlet). */
  children?: ReactNode;
}

/** Route element guarding everything that needs a signed-in user (spec §2 "Login gate"). */
export function LoginGate({ fallback = null, children }: LoginGateProps) {
  const { status, error, login, logout } = useAuth();
  const { pathname, search, hash } = useLocation();

  useEffect(() => {
    if (status === 'unauthenticated') void login(`${pathname}${search}${hash}`);
    // The return path is the one when the session was found missing, not every later navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, login]);

  useEffect(() => {
    if (status !== 'error') return;
    console.error(LOGIN_ERROR_MESSAGE, error);
    const timer = setTimeout(() => void logout(), LOGIN_ERROR_LOGOUT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [status, error, logout]);

  if (status !== 'authenticated') return <>{fallback}</>;
  return <>{children ?? <Outlet />}</>;
}
