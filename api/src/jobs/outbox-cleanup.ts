import type { Db } from '../db/driver';
import { claimDailyRun, type DailyClaim } from './daily-claim';

export const OUTBOX_CLEANUP_JOB = 'outbox-cleanup';

/** How long a finished item stays for someone looking into what the worker did. */
export const FINISHED_ITEM_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Removes, once per UTC day per database, finished items of `kinds` older than
 * FINISHED_ITEM_RETENTION_MS: kinds whose finished rows nothing reads again (the caller names
 * them; the engine knows its handlers only through what registers with it). Unfinished items
 * stay whatever their age (the worker still owes them), and so does everything of other kinds.
 * The partial indexes of the worker's claim cover only unfinished items, so this delete reads
 * by kind and age over the table.
 */
export function runOutboxCleanup(
  db: Db,
  kinds: readonly string[],
  now: Date = new Date(),
): Promise<DailyClaim<number>> {
  const cutoff = new Date(now.getTime() - FINISHED_ITEM_RETENTION_MS).toISOString();
  return claimDailyRun(db, OUTBOX_CLEANUP_JOB, now, async (tx) => {
    const removed = await tx.query(
      `delete from outbox
        where kind = any($1::text[]) and done_at is not null and done_at < $2::timestamptz`,
      [kinds, cutoff],
    );
    return removed.rowCount;
  });
}
