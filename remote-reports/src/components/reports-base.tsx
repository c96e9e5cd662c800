import { createContext, useContext } from 'react';
import { Outlet, useLocation, useParams } from '@portal/shared-ui';

const ReportsBaseContext = createContext<string>('/report');

/**
 * The remote is mounted at /report or /lti/report; links between its screens are built from
 * wherever it was mounted, read once here at its root.
 */
export function ReportsBase() {
  const base = useMountPath();
  return (
    <ReportsBaseContext.Provider value={base}>
      <Outlet />
    </ReportsBaseContext.Provider>
  );
}

export const useReportsBase = () => useContext(ReportsBaseContext);

/**
 * The host mounts the remote on a splat route (`/report/*`); what the splat matched is the part
 * of the URL below the mount path, so the rest is where the remote lives.
 */
function useMountPath(): string {
  const { pathname } = useLocation();
  const rest = useParams()['*'] ?? '';
  const base = rest && pathname.endsWith(rest) ? pathname.slice(0, pathname.length - rest.length) : pathname;
  return base.replace(/\/+$/, '');
}
