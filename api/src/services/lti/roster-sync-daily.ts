import { LTI_ROSTER_DAILY_DAYS } from '@portal/contract';
import type { Db } from '../../db/driver';
import { claimDailyRun, type DailyClaim } from '../../jobs/daily-claim';
import { createLtiRosterRepository } from '../../repositories/lti-roster-repository';
import { enqueueRosterSync } from './roster-sync';

export const LTI_ROSTER_DAILY_JOB = 'lti-roster-sync';

/**
 * Once per UTC day per database (jobs/daily-claim.ts): a sync, by nobody (the System actor), of
 * every course that offers a roster and that a launch came from in the last LTI_ROSTER_DAILY_DAYS
 * days. Only the syncs are queued here, in the claim's transaction; the outbox worker does them.
 * A course with a sync still waiting or running keeps that one. Answers the syncs' ids.
 */
export async function runDailyRosterSync(db: Db, now: Date): Promise<DailyClaim<string[]>> {
  return claimDailyRun(db, LTI_ROSTER_DAILY_JOB, now, async (tx) => {
    const since = new Date(now.getTime() - LTI_ROSTER_DAILY_DAYS * 86_400_000);
    const courses = await createLtiRosterRepository(tx).coursesLaunchedSince(since);
    const ids: string[] = [];
    for (const id of courses) ids.push((await enqueueRosterSync(tx, id, null)).id);
    return ids;
  });
}
