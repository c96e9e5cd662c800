import type { LtiRosterSummary } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getRosterSummaryKey = (launchId: string) =>
  `/api/v1/lti/roster-sync/launch/${encodeURIComponent(launchId)}`;

/**
 * The roster of the launch's course (learners, last sync); null key = not asked (not an educator).
 * An error means the launch offers no roster sync to the caller (learner launch, no NRPS, expired).
 */
export function useRosterSummary(launchId: string | null) {
  return useApi<LtiRosterSummary>(launchId ? getRosterSummaryKey(launchId) : null, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}
