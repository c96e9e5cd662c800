import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router-dom';
import type { UserManager } from 'oidc-client-ts';
import { AuthProvider } from '../auth/auth-provider';
import { LoginGate } from '../auth/login-gate';
import { AUTHORITY, CLIENT_ID, testUserManager } from './oidc';

export interface RenderWithAuthOptions {
  manager?: UserManager;
  /** The URL the page is at when rendering starts. */
  path?: string;
  /** Extra routes inside the gate. */
  routes?: ReactNode;
  wrapper?: (ui: ReactElement) => ReactElement;
}

/**
 * The provider stack as the host builds it: AuthProvider around a browser router whose protected
 * routes sit under LoginGate; the real oidc-client-ts UserManager by default. A browser router,
 * because LoginGate takes the return path from the browser's location, as in the portal.
 */
export function renderWithAuth(element: ReactNode, options: RenderWithAuthOptions = {}) {
  const { manager = testUserManager(), path = '/', routes, wrapper = (ui) => ui } = options;
  window.history.replaceState(null, '', path);
  const ui = (
    <AuthProvider authority={AUTHORITY} clientId={CLIENT_ID} apiBaseUrl="" userManager={manager}>
      <BrowserRouter>
        <Routes>
          <Route
            element={
              <LoginGate fallback={<p role="status">Loading...</p>}>
                <Outlet />
              </LoginGate>
            }
          >
            <Route path="*" element={element} />
            {routes}
          </Route>
        </Routes>
      </BrowserRouter>
    </AuthProvider>
  );
  return { manager, ...render(wrapper(ui)) };
}
