import type { Db } from '../db/driver';
import { recordAudit, SYSTEM_ACTOR } from '../repositories/audit-repository';
import { isoDay } from '../repositories/entitlement-repository';

export const LICENSE_EXPIRY_JOB = 'license-expiry';

export type LicenseExpiryRun =
  | { ran: true; day: string; expired: number[] }
  /** `busy`: another process holds today's run; `done`: today's run is over. */
  | { ran: false; day: string; reason: 'busy' | 'done' };

/**
 * Marks the licences whose expiry day has passed inactive (they grant nothing after it anyway,
 * see currentLicenseSql) and records each in the audit log, once per UTC day per database.
 *
 * One transaction takes the job's row with `for update skip locked`, does the work and notes the
 * day: a second process finds the row taken (or the day done) and leaves; a crash rolls all of
 * it back, and the next check does the day again. The update's `is_active` condition makes a
 * repeated run harmless as well.
 */
export async function runLicenseExpiry(db: Db, now: Date = new Date()): Promise<LicenseExpiryRun> {
  const day = isoDay(now);
  return db.transaction(async (tx): Promise<LicenseExpiryRun> => {
    const claimed = await tx.query<{ last_run_on: string | null }>(
      `select to_char(last_run_on, 'YYYY-MM-DD') as last_run_on from scheduled_jobs
        where name = $1 for update skip locked`,
      [LICENSE_EXPIRY_JOB],
    );
    const job = claimed.rows[0];
    if (!job) return { ran: false, day, reason: 'busy' };
    if (job.last_run_on !== null && job.last_run_on >= day)
      return { ran: false, day, reason: 'done' };

    const expired = await tx.query<{
      id: number;
      organisation_id: number;
      license_name: string;
      expiry_date: string;
    }>(
      `update license_blocks set is_active = false
        where is_active and expiry_date < $1::date
        returning id, organisation_id, license_name, to_char(expiry_date, 'YYYY-MM-DD') as expiry_date`,
      [day],
    );
    for (const row of expired.rows) {
      const license = { licenseName: row.license_name, expiryDate: row.expiry_date };
      await recordAudit(tx, {
        actor: SYSTEM_ACTOR,
        action: 'update',
        entityType: 'license_block',
        entityId: row.id,
        organisationId: row.organisation_id,
        before: { ...license, isActive: true },
        after: { ...license, isActive: false },
      });
    }
    await tx.query(
      'update scheduled_jobs set last_run_on = $2::date, last_run_at = now() where name = $1',
      [LICENSE_EXPIRY_JOB, day],
    );
    return { ran: true, day, expired: expired.rows.map((r) => r.id).sort((a, b) => a - b) };
  });
}
