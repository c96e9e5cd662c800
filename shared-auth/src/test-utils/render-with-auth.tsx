import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { UserManager } from 'oidc-client-ts';
import { AuthProvider } from '../auth/auth-provider';
import { LoginGate } from '../auth/login-gate';
import { AUTHORITY, CLIENT_ID, testUserManager } from './oidc';

export interface RenderWithAuthOptions {
  manager?: UserManager;
  /** The URL the memory router starts at. */
  path?: string;
  /** Extra routes inside the gate. */
  routes?: ReactNode;
  wrapper?: (ui: ReactElement) => ReactElement;
}

/**
 * The provider stack as the host builds it: AuthProvider around a router whose protected routes
 * sit under LoginGate; the real oidc-client-ts UserManager by default.
 */
export function renderWithAuth(element: ReactNode, options: RenderWithAuthOptions = {}) {
  const { manager = testUserManager(), path = '/', routes, wrapper = (ui) => ui } = options;
  const ui = (
    <AuthProvider authority={AUTHORITY} clientId={CLIENT_ID} apiBaseUrl="" userManager={manager}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route element={<LoginGate fallback={<p role="status">Loading...</p>} />}>
            <Route path="*" element={element} />
            {routes}
          </Route>
        </Routes>
      </MemoryRouter>
    </AuthProvider>
  );
  return { manager, ...render(wrapper(ui)) };
}
