import {
  LTI_COURSE_MESSAGES,
  type GradeReleasePolicy,
  type LtiCourseGradeRelease,
  type LtiCourseGradeReleaseChoice,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/driver';
import { badRequest } from '../../lib/http-errors';
import { createAuditRepository } from '../../repositories/audit-repository';
import type { AuthUser } from '../../repositories/user-repository';
import { runUnitOfWork } from '../unit-of-work';
import { ownInstructorLaunch } from './roster-sync';

/**
 * A course's own grade release (issue #23 point 2): its instructor, with a recent launch of theirs
 * into it, overrides the organisation's default or goes back to it. The organisation is the
 * platform registration's: its users are the course's learners.
 */

interface CourseReleaseRow {
  id: number;
  title: string | null;
  grade_release: GradeReleasePolicy | null;
  organisation_default: GradeReleasePolicy;
  organisation_id: number;
}

async function courseOfLaunch(q: Queryable, user: AuthUser, launchId: string, lock: boolean) {
  const launch = await ownInstructorLaunch(q, user, launchId, LTI_COURSE_MESSAGES);
  if (launch.course_id === null) throw badRequest({ launchId: [LTI_COURSE_MESSAGES.noCourse] });
  const res = await q.query<CourseReleaseRow>(
    `select c.id, c.title, c.grade_release, o.grade_release as organisation_default,
            o.id as organisation_id
       from lti_courses c
       join lti_platforms p on p.id = c.platform_id
       join organisations o on o.id = p.organisation_id
      where c.id = $1 ${lock ? 'for update of c' : ''}`,
    [launch.course_id],
  );
  return res.rows[0]!;
}

const toAnswer = (row: CourseReleaseRow): LtiCourseGradeRelease => ({
  courseTitle: row.title,
  gradeRelease: row.grade_release,
  organisationDefault: row.organisation_default,
});

/** GET /api/v1/lti/course-grade-release/{launchId}. */
export async function courseGradeRelease(
  q: Queryable,
  user: AuthUser,
  launchId: string,
): Promise<LtiCourseGradeRelease> {
  return toAnswer(await courseOfLaunch(q, user, launchId, false));
}

/** PUT /api/v1/lti/course-grade-release: sets (or clears, null) the course's override; audited. */
export function setCourseGradeRelease(
  deps: { db: Db },
  user: AuthUser,
  launchId: string,
  gradeRelease: LtiCourseGradeReleaseChoice,
): Promise<LtiCourseGradeRelease> {
  return runUnitOfWork(deps.db, async ({ q }) => {
    const before = await courseOfLaunch(q, user, launchId, true);
    if (before.grade_release === gradeRelease) return toAnswer(before);
    await q.query('update lti_courses set grade_release = $2 where id = $1', [
      before.id,
      gradeRelease,
    ]);
    const after = { ...before, grade_release: gradeRelease };
    await createAuditRepository(q).record({
      actor: user,
      action: 'update',
      entityType: 'lti_course',
      entityId: before.id,
      organisationId: before.organisation_id,
      before: { gradeRelease: before.grade_release },
      after: { gradeRelease },
    });
    return toAnswer(after);
  });
}
