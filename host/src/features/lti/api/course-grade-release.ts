import { useCallback } from 'react';
import type { LtiCourseGradeRelease, LtiCourseGradeReleaseChoice } from '@portal/contract';
import { useApi, useApiClient } from '@portal/shared-auth';

/**
 * The course's own grade release and its organisation's default; null key = not asked (not an
 * educator). An error means the launch offers the caller no such choice (learner, no course, expired).
 */
export function useCourseGradeRelease(launchId: string | null) {
  return useApi<LtiCourseGradeRelease>(
    launchId ? `/api/v1/lti/course-grade-release/${encodeURIComponent(launchId)}` : null,
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
}

/** PUT the course's choice (null: the organisation's default); answers the setting as saved. */
export function useSaveCourseGradeRelease(launchId: string) {
  const api = useApiClient();
  return useCallback(
    (gradeRelease: LtiCourseGradeReleaseChoice) =>
      api.put<LtiCourseGradeRelease>('/api/v1/lti/course-grade-release', { launchId, gradeRelease }),
    [api, launchId],
  );
}
