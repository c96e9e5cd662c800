import { createContext, useContext } from 'react';
import { RequirePermission } from '@portal/shared-auth';
import { NotFoundView, Outlet, useLocation, useParams } from '@portal/shared-ui';

const AdminBaseContext = createContext<string>('/admin');

/**
 * Root of the remote: remembers where it is mounted (links are built from it) and refuses
 * everyone without the admin-section permission (docs/requirements.md#administration: page not found), also when the remote
 * runs on its own.
 */
export function AdminBase() {
  const base = useMountPath();
  return (
    <RequirePermission anyOf={['global.client_access_admin_section']} fallback={<NotFoundView />}>
      <AdminBaseContext.Provider value={base}>
        <Outlet />
      </AdminBaseContext.Provider>
    </RequirePermission>
  );
}

export const useAdminBase = () => useContext(AdminBaseContext);

/**
 * The host mounts the remote on a splat route (`/admin/*`); what the splat matched is the part
 * of the URL below the mount path, so the rest is where the remote lives.
 */
function useMountPath(): string {
  const { pathname } = useLocation();
  const rest = useParams()['*'] ?? '';
  const base = rest && pathname.endsWith(rest) ? pathname.slice(0, pathname.length - rest.length) : pathname;
  return base.replace(/\/+$/, '');
}
