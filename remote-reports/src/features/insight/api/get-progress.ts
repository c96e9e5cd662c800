import type { Progress } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

/** GET /api/v1/report/progress: the signed-in learner's own trend per projection. */
export const PROGRESS_PATH = '/api/v1/report/progress';

export function useProgress() {
  return useApi<Progress>(PROGRESS_PATH);
}
