import type { Db, Queryable } from '../db/driver';
import { isoDay } from '../repositories/entitlement-repository';

/** A daily job's turn: done here (with the work's answer), or not. */
export type DailyClaim<T> =
  | { ran: true; day: string; result: T }
  /** `busy`: another process holds today's run; `done`: today's run is over. */
  | { ran: false; day: string; reason: 'busy' | 'done' };

/**
 * Runs `work` at most once per UTC day of `now` per database, for the `scheduled_jobs` row `job`.
 *
 * One transaction takes the job's row with `for update skip locked`, does the work and notes the
 * day: a second process finds the row taken (or the day done) and leaves; a crash rolls all of it
 * back, and the next check does the day again.
 */
export async function claimDailyRun<T>(
  db: Db,
  job: string,
  now: Date,
  work: (tx: Queryable, day: string) => Promise<T>,
): Promise<DailyClaim<T>> {
  const day = isoDay(now);
  return db.transaction(async (tx): Promise<DailyClaim<T>> => {
    const claimed = await tx.query<{ last_run_on: string | null }>(
      `select to_char(last_run_on, 'YYYY-MM-DD') as last_run_on from scheduled_jobs
        where name = $1 for update skip locked`,
      [job],
    );
    const row = claimed.rows[0];
    if (!row) return { ran: false, day, reason: 'busy' };
    if (row.last_run_on !== null && row.last_run_on >= day) {
      return { ran: false, day, reason: 'done' };
    }
    const result = await work(tx, day);
    await tx.query(
      'update scheduled_jobs set last_run_on = $2::date, last_run_at = now() where name = $1',
      [job, day],
    );
    return { ran: true, day, result };
  });
}
