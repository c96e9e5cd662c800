import type { Queryable } from '../db/driver';
import { createLtiRosterRepository } from '../repositories/lti-roster-repository';
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
  const roster = createLtiRosterRepository(tx);
  const contextId = textOf(launch.context?.id, 255);
  let courseId: number | null = null;
  if (contextId !== null) {
    courseId = await roster.upsertLaunchCourse({
      platformId: launch.platform.id,
      contextId,
      title: textOf(launch.context?.title, 500) ?? textOf(launch.context?.label, 500),
      membershipsUrl: membershipsUrlOf(launch.nrpsEndpoint),
      deploymentId: launch.deploymentId,
    });
    // Launching into the course is being in it, whatever the last roster said.
    await roster.upsertMember(
      courseId,
      userId,
      launch.sub,
      portalRoleFor(launch.roles) === 'educator',
    );
  }
  await roster.setLaunchCourse(launchId, launch.nrpsEndpoint ?? null, courseId);
  return courseId;
}
