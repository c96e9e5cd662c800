import { useCallback } from 'react';
import type { LtiRosterSyncStarted } from '@portal/contract';
import { useApiClient } from '@portal/shared-auth';

/** POST the launch; 202 answers the sync's id (a sync already waiting or running is answered instead). */
export function useStartRosterSync(launchId: string) {
  const api = useApiClient();
  return useCallback(
    () =>
      api.post<LtiRosterSyncStarted>(
        '/api/v1/lti/roster-sync',
        { launchId },
        { successStatus: 202 },
      ),
    [api, launchId],
  );
}
