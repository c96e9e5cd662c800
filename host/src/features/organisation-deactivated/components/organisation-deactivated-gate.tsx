import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { SWRConfig } from 'swr';
import type { OrganisationDeactivated } from '@portal/contract';
import { useAuth } from '@portal/shared-auth';
import { PageSpinner } from '@portal/shared-ui';
import { deactivationOf } from '../lib/deactivation-of';

// Almost nobody sees this page, and every first visit would download it: fetched when shown.
const OrganisationDeactivatedPage = lazy(async () => ({
  default: (await import('./organisation-deactivated-page')).OrganisationDeactivatedPage,
}));

/**
 * Shows the deactivated organisation's page instead of the portal when the API refuses the user
 * with ORGANISATION_DEACTIVATED: at start (whoami, before the login gate would sign them out as
 * a failed login) or later, on any data request of a screen (the organisation was deactivated
 * while they were using it).
 */
export function OrganisationDeactivatedGate({ children }: { children: ReactNode }) {
  const { error } = useAuth();
  const [later, setLater] = useState<OrganisationDeactivated | null>(null);
  const swr = useMemo(
    () => ({
      onError: (cause: unknown) => {
        const refusal = deactivationOf(cause);
        if (refusal) setLater(refusal);
      },
    }),
    [],
  );
  const refusal = deactivationOf(error) ?? later;
  if (refusal) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <OrganisationDeactivatedPage refusal={refusal} />
      </Suspense>
    );
  }
  return <SWRConfig value={swr}>{children}</SWRConfig>;
}
