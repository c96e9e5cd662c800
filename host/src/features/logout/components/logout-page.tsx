import { useEffect, useRef } from 'react';
import { useAuth } from '@portal/shared-auth';
import { PageSpinner, useNavigate } from '@portal/shared-ui';
import { useRuntimeConfig } from '../../../app/runtime-config';
import { brightspaceLogoutHref, paths } from '../../../app/paths';

export const NO_BRIGHTSPACE_MESSAGE = 'No Brightspace address provided';

/**
 * Spec §2: signed in → sign out at the identity provider, which returns here; signed out → leave
 * the learning platform too when one is linked, else go home.
 */
export function LogoutPage({ assign = (url: string) => window.location.assign(url) }: { assign?: (url: string) => void }) {
  const { status, logout } = useAuth();
  const { brightspaceHost } = useRuntimeConfig();
  const navigate = useNavigate();
  const done = useRef(false);

  useEffect(() => {
    if (done.current || status === 'loading') return;
    done.current = true;
    if (status === 'authenticated') {
      void logout();
    } else if (brightspaceHost) {
      assign(brightspaceLogoutHref(brightspaceHost));
    } else {
      console.error(NO_BRIGHTSPACE_MESSAGE);
      navigate(paths.home.getHref(), { replace: true });
    }
  }, [status, logout, brightspaceHost, navigate, assign]);

  return <PageSpinner />;
}
