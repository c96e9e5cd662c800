import type { Db } from '../db/driver';
import { SYSTEM_ACTOR, createAuditRepository } from '../repositories/audit-repository';
import { claimDailyRun } from './daily-claim';

export const LICENSE_EXPIRY_JOB = 'license-expiry';

export type LicenseExpiryRun =
  | { ran: true; day: string; expired: number[] }
  /** `busy`: another process holds today's run; `done`: today's run is over. */
  | { ran: false; day: string; reason: 'busy' | 'done' };

/**
 * Marks the licences whose expiry day has passed inactive (they grant nothing after it anyway,
 * see currentLicenseSql) and records each in the audit log, once per UTC day per database
 * (daily-claim.ts). The update's `is_active` condition makes a repeated run harmless as well.
 */
export async function runLicenseExpiry(db: Db, now: Date = new Date()): Promise<LicenseExpiryRun> {
  const run = await claimDailyRun(db, LICENSE_EXPIRY_JOB, now, async (tx, day) => {
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
      await createAuditRepository(tx).record({
        actor: SYSTEM_ACTOR,
        action: 'update',
        entityType: 'license_block',
        entityId: row.id,
        organisationId: row.organisation_id,
        before: { ...license, isActive: true },
        after: { ...license, isActive: false },
      });
    }
    return expired.rows.map((r) => r.id).sort((a, b) => a - b);
  });
  return run.ran ? { ran: true, day: run.day, expired: run.result } : run;
}
