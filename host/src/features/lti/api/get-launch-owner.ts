import type { LtiLaunchOwner } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getLaunchOwnerKey = (launchId: string) =>
  `/api/v1/lti/launch/${encodeURIComponent(launchId)}/owner`;

/** Whether the launch is the signed-in user's own; null launchId = not asked (not signed in). */
export function useLaunchOwner(launchId: string | null) {
  return useApi<LtiLaunchOwner>(launchId ? getLaunchOwnerKey(launchId) : null, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}
