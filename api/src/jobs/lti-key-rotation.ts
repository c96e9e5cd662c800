import type { Db } from '../db/driver';
import {
  KEY_ROTATION_DAYS,
  lockToolKeys,
  rotateToolKey,
  signingKeySince,
  type RotateResult,
} from '../lti/tool-keys';
import { SYSTEM_ACTOR } from '../repositories/audit-repository';
import { claimDailyRun } from './daily-claim';

export const LTI_KEY_ROTATION_JOB = 'lti-key-rotation';

const DAY_MS = 86_400_000;

export type LtiKeyRotationRun =
  | { ran: true; day: string; result: RotateResult | { rotated: false; reason: 'not_due' | 'no_key' } }
  /** `busy`: another process holds today's run; `done`: today's run is over. */
  | { ran: false; day: string; reason: 'busy' | 'done' };

/**
 * The scheduled tool key rotation, looked at once per UTC day per database (daily-claim.ts):
 * when the signing key has signed KEY_ROTATION_DAYS or longer and no next key waits, a next key
 * is published that signs from tomorrow (tool-keys.ts), audited with the actor "System".
 */
export async function runLtiKeyRotation(db: Db, now: Date = new Date()): Promise<LtiKeyRotationRun> {
  return claimDailyRun(db, LTI_KEY_ROTATION_JOB, now, async (tx) => {
    // The same lock as the command's, so a rotation by hand at this moment is seen, not doubled.
    await lockToolKeys(tx);
    const signing = await signingKeySince(tx, now);
    if (!signing) return { rotated: false, reason: 'no_key' } as const;
    if (now.getTime() - signing.signsFrom.getTime() < KEY_ROTATION_DAYS * DAY_MS) {
      return { rotated: false, reason: 'not_due' } as const;
    }
    return rotateToolKey(tx, { actor: SYSTEM_ACTOR, now, reason: 'scheduled' });
  });
}
