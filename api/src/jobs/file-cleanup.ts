import type { Db } from '../db/driver';
import type { Storage } from '../storage/storage';
import { claimDailyRun } from './daily-claim';

export const FILE_CLEANUP_JOB = 'file-cleanup';

/** How long an upload may wait for the form that saves it (a form left open over night). */
export const UNSAVED_FILE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Kinds whose saved file belongs to exactly one record (an installer version, a configuration):
 * once no record names it, a newer upload replaced it. A saved users CSV belongs to no record
 * and is kept; an evidence image is its evidence's.
 */
const REPLACEABLE_KINDS = ['sim-installation-file', 'sim-config', 'sim-config-translation'];

export type FileCleanupRun =
  | { ran: true; day: string; removed: Array<{ id: string; kind: string; state: string }> }
  /** `busy`: another process holds today's run; `done`: today's run is over. */
  | { ran: false; day: string; reason: 'busy' | 'done' };

/**
 * Removes, once per UTC day per database, the files no record keeps: uploads still `uploading`
 * or `uploaded` after UNSAVED_FILE_MAX_AGE_MS, and saved installers and configuration files that
 * no version or configuration names any more (replaced by a newer upload). Every table that
 * points at files is asked, so a file in use is never removed whatever its state.
 *
 * The rows go in the transaction that claims the day (daily-claim.ts); the stored bytes after it commits — a crash in between leaves bytes without a row,
 * never a row without its bytes. A byte removal that fails is reported and does not stop the rest.
 */
export async function runFileCleanup(
  db: Db,
  storage: Storage,
  now: Date = new Date(),
  onRemoveError: (key: string, error: unknown) => void = () => undefined,
): Promise<FileCleanupRun> {
  const cutoff = new Date(now.getTime() - UNSAVED_FILE_MAX_AGE_MS).toISOString();
  const claimed = await claimDailyRun(db, FILE_CLEANUP_JOB, now, async (tx) => {
    const removed = await tx.query<{
      id: string;
      kind: string;
      state: string;
      storage_key: string;
    }>(
      `delete from files f
        where not exists (select 1 from simulation_downloads d where d.file_id = f.id)
          and not exists (select 1 from product_configurations c
                           where c.config_file_id = f.id or c.translation_file_id = f.id)
          and not exists (select 1 from evidence e where e.image_file_id = f.id)
          and ((f.state <> 'saved' and f.created_at < $1::timestamptz)
            or (f.state = 'saved' and f.kind = any($2::text[])))
        returning f.id::text as id, f.kind, f.state, f.storage_key`,
      [cutoff, REPLACEABLE_KINDS],
    );
    return removed.rows;
  });
  if (!claimed.ran) return claimed;
  for (const row of claimed.result) {
    try {
      await storage.remove(row.storage_key);
    } catch (error) {
      onRemoveError(row.storage_key, error);
    }
  }
  const removed = claimed.result
    .map(({ id, kind, state }) => ({ id, kind, state }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return { ran: true, day: claimed.day, removed };
}
