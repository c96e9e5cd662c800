import { Type, type Static } from '@sinclair/typebox';
import { GradeReleasePolicy } from './marking';
import { LtiRosterLaunchParams } from './lti-roster';

/**
 * When a course's grades go to the learning platform (issue #23 point 2): per organisation by
 * default, per course as an override. The course's instructor sets it on the launch page with a
 * recent launch of theirs into it, as they sync its roster.
 */

/** The course's own choice; null: the organisation's default. */
export const LtiCourseGradeReleaseChoice = Type.Union([GradeReleasePolicy, Type.Null()]);
export type LtiCourseGradeReleaseChoice = Static<typeof LtiCourseGradeReleaseChoice>;

/** GET /api/v1/lti/course-grade-release/{launchId}. */
export const LtiCourseGradeReleaseParams = LtiRosterLaunchParams;
export type LtiCourseGradeReleaseParams = Static<typeof LtiCourseGradeReleaseParams>;

/** PUT /api/v1/lti/course-grade-release. */
export const LtiCourseGradeReleaseInput = Type.Object(
  {
    launchId: LtiRosterLaunchParams.properties.launchId,
    gradeRelease: LtiCourseGradeReleaseChoice,
  },
  { additionalProperties: false },
);
export type LtiCourseGradeReleaseInput = Static<typeof LtiCourseGradeReleaseInput>;

/** The course's setting beside the organisation's default it falls back to. */
export const LtiCourseGradeRelease = Type.Object({
  courseTitle: Type.Union([Type.String(), Type.Null()]),
  gradeRelease: LtiCourseGradeReleaseChoice,
  organisationDefault: GradeReleasePolicy,
});
export type LtiCourseGradeRelease = Static<typeof LtiCourseGradeRelease>;

export const LTI_COURSE_MESSAGES = {
  noCourse: 'This launch came from no course (the platform sent no context).',
  notInstructor: "Only the course's instructors and administrators may change when its grades go out.",
  launchExpired:
    'This launch is older than a day. Open the activity from the course again to change its settings.',
} as const;
