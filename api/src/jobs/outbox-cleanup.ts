import type { Db } from '../db/driver';
import { MARK_EVIDENCE_KIND } from '../services/sessions/mark-evidence';
import { claimDailyRun, type DailyClaim } from './daily-claim';

export const OUTBOX_CLEANUP_JOB = 'outbox-cleanup';

/** How long a finished item stays for someone looking into what the worker did. */
export const FINISHED_ITEM_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Kinds whose finished rows nothing reads again. Not the identity kinds: a later step of an
 * account reads the `progress` of its finished creation (identity/account-handlers.ts), and an
 * invitation's recency comes from its row. Image markings are the ones that grow with use: one
 * row per evidence image.
 */
export const CLEANED_KINDS: readonly string[] = [MARK_EVIDENCE_KIND];

/**
 * Removes, once per UTC day per database, finished items of CLEANED_KINDS older than
 * FINISHED_ITEM_RETENTION_MS. Unfinished items stay whatever their age (the worker still owes
 * them), and so does everything of other kinds. The partial indexes of the worker's claim cover
 * only unfinished items, so this delete reads by kind and age over the table.
 */
export function runOutboxCleanup(db: Db, now: Date = new Date()): Promise<DailyClaim<number>> {
  const cutoff = new Date(now.getTime() - FINISHED_ITEM_RETENTION_MS).toISOString();
  return claimDailyRun(db, OUTBOX_CLEANUP_JOB, now, async (tx) => {
    const removed = await tx.query(
      `delete from outbox
        where kind = any($1::text[]) and done_at is not null and done_at < $2::timestamptz`,
      [CLEANED_KINDS, cutoff],
    );
    return removed.rowCount;
  });
}
