import { LTI_LAUNCH_MAX_AGE_SECONDS, LTI_MESSAGES } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { badRequest, notFound } from '../lib/http-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A session started with `ltiLaunchId` (issue #10 point 3) must name a launch of the caller's, at
 * most LTI_LAUNCH_MAX_AGE_SECONDS old. Someone else's launch is as unknown as one that never was
 * (404); an old one must be opened again from the course (400), so a report and its grade belong
 * to a launch the platform made recently.
 */
export async function assertOwnRecentLaunch(
  db: Queryable,
  ltiLaunchId: string | null,
  userId: string,
): Promise<void> {
  if (ltiLaunchId === null) return;
  if (!UUID.test(ltiLaunchId)) throw notFound();
  const res = await db.query<{ user_id: string; age: number }>(
    `select user_id::text as user_id, extract(epoch from (now() - created_at))::float8 as age
       from lti_launches where id = $1::uuid`,
    [ltiLaunchId],
  );
  const launch = res.rows[0];
  if (!launch || launch.user_id.toLowerCase() !== userId.toLowerCase()) throw notFound();
  if (Number(launch.age) > LTI_LAUNCH_MAX_AGE_SECONDS) {
    throw badRequest({ ltiLaunchId: [LTI_MESSAGES.launchExpired] });
  }
}
