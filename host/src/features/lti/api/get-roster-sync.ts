import type { LtiRosterSync } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getRosterSyncKey = (id: string) => `/api/v1/lti/roster-sync/${encodeURIComponent(id)}`;

/** How often a sync still waiting or running is asked again. */
export const ROSTER_SYNC_POLL_MS = 1000;

/** One sync; polled until it is done or failed. */
export function useRosterSync(id: string | null) {
  return useApi<LtiRosterSync>(id ? getRosterSyncKey(id) : null, {
    revalidateOnFocus: false,
    refreshInterval: (latest) =>
      latest && (latest.status === 'done' || latest.status === 'failed') ? 0 : ROSTER_SYNC_POLL_MS,
  });
}
