import type { Queryable } from '../db/driver';
import type { ValidLaunch } from '../repositories/lti-types';
import { portalRoleFor } from './validate-launch';

/**
 * The course of a launch (issue #22 point 4): registration + context id, kept with when a launch
 * last came from it and the memberships URL of its NRPS claim, and the launched user as one of
 * its members. Runs in the launch's transaction (services/lti/record-launch.ts).
 */

/** The memberships URL of an NRPS 2.0 claim; null when the claim offers no usable roster. */
export function membershipsUrlOf(claim: Record<string, unknown> | null | undefined): string | null {
  if (!claim) return null;
  const url = claim.context_memberships_url;
  const versions = claim.service_versions;
  if (typeof url !== 'string' || url.length > 2000) return null;
  if (!Array.isArray(versions) || !versions.includes('2.0')) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

const textOf = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;

/** Records the launch's NRPS claim and course; answers the course id (null: no context). */
export async function recordLaunchCourse(
  tx: Queryable,
  launch: ValidLaunch,
  launchId: string,
  userId: string,
): Promise<number | null> {
  const contextId = textOf(launch.context?.id, 255);
  let courseId: number | null = null;
  if (contextId !== null) {
    const title = textOf(launch.context?.title, 500) ?? textOf(launch.context?.label, 500);
    const course = await tx.query<{ id: number }>(
      `insert into lti_courses (platform_id, context_id, title, memberships_url, deployment_id)
       values ($1, $2, $3, $4, $5)
       on conflict (platform_id, context_id) do update
          set title = coalesce(excluded.title, lti_courses.title),
              memberships_url = coalesce(excluded.memberships_url, lti_courses.memberships_url),
              deployment_id = excluded.deployment_id,
              last_launch_at = now()
       returning id`,
      [
        launch.platform.id,
        contextId,
        title,
        membershipsUrlOf(launch.nrpsEndpoint),
        launch.deploymentId,
      ],
    );
    courseId = course.rows[0]!.id;
    // Launching into the course is being in it, whatever the last roster said.
    await tx.query(
      `insert into lti_course_members (course_id, user_id, platform_sub, educator)
       values ($1, $2, $3, $4)
       on conflict (course_id, user_id) do update
          set platform_sub = excluded.platform_sub, educator = excluded.educator,
              active = true, updated_at = now()`,
      [courseId, userId, launch.sub, portalRoleFor(launch.roles) === 'educator'],
    );
  }
  await tx.query(
    'update lti_launches set nrps_endpoint = $2::jsonb, course_id = $3 where id = $1::uuid',
    [launchId, launch.nrpsEndpoint ? JSON.stringify(launch.nrpsEndpoint) : null, courseId],
  );
  return courseId;
}
