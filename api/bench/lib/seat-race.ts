import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../../src/db/driver';
import { createLicenseRepository } from '../../src/repositories/license-repository';

/**
 * The seat race of issue #8: many administrators give seats of one licence at the same moment.
 * Shared by the test (test/routes/api/v1/license-block/seat-race.test.ts) and
 * `pnpm --filter @portal/api bench:seats`.
 *
 * - `locked`: the API's way, `assignUsers` (licence row locked, then counted).
 * - `constraint-only`: plain inserts with no lock or count in code, so only the database's
 *   seat check (migration 0005) stands between them and an overbooking.
 * - `naive`: count, then insert, with the seat triggers off: what the schema before 0005 allowed.
 *   It must overbook on PostgreSQL, or the race would prove nothing.
 */
export type SeatRaceMode = 'locked' | 'constraint-only' | 'naive';

export interface SeatRaceOptions {
  mode: SeatRaceMode;
  /** Concurrent assignments, one user each. */
  attempts: number;
  seats: number;
  /**
   * Hold every transaction until all have begun, so they really overlap. Needs a connection per
   * attempt (PostgreSQL); PGlite runs transactions one at a time and would wait forever.
   */
  barrier: boolean;
}

export interface SeatRaceTrial {
  successes: number;
  /** Seat rows of the licence after the race. */
  seatRows: number;
  /** The licence's seats_used counter after the race. */
  seatsUsed: number;
  /** Failures other than "no seat left", which would make the trial worthless. */
  unexpected: string[];
}

/** A fresh organisation with a licence of `seats` seats and `users` users (`setup` needs no race). */
async function setUp(db: Queryable, seats: number, users: number) {
  const org = await db.query<{ id: number }>(
    `insert into organisations (name) values ($1) returning id`,
    [`Seat race ${randomUUID()}`],
  );
  const organisationId = org.rows[0]!.id;
  const license = await db.query<{ id: number }>(
    `insert into license_blocks (organisation_id, license_name, number_of_seats, start_date,
       expiry_date, duration_id)
     values ($1, 'Race', $2, current_date - 1, current_date + 365,
       (select id from lookups where field = 'license_duration' and code = 'P1Y'))
     returning id`,
    [organisationId, seats],
  );
  const userIds = Array.from({ length: users }, () => randomUUID());
  await db.query(
    `insert into users (id, email, first_name, last_name, organisation_id, role_id)
     select id, id::text || '@race.test', 'Race', 'User', $2,
            (select id from roles where name = 'learner')
       from unnest($1::uuid[]) as id`,
    [userIds, organisationId],
  );
  return { organisationId, licenseBlockId: license.rows[0]!.id, userIds };
}

const isSeatCheck = (error: unknown) =>
  (error as { code?: unknown }).code === '23514' &&
  String((error as { message?: unknown }).message).includes('license_blocks_seats_check');

/** Turns the seat triggers off (naive mode) or on again; only in a database of its own. */
export async function setSeatTriggers(db: Queryable, enabled: boolean): Promise<void> {
  const verb = enabled ? 'enable always' : 'disable';
  for (const trigger of ['license_seats_insert', 'license_seats_delete', 'license_seats_update']) {
    await db.query(`alter table license_block_users ${verb} trigger ${trigger}`);
  }
}

export async function seatRaceTrial(db: Db, options: SeatRaceOptions): Promise<SeatRaceTrial> {
  const { organisationId, licenseBlockId, userIds } = await setUp(
    db,
    options.seats,
    options.attempts,
  );
  const actor = { id: userIds[0]!, firstName: 'Race', lastName: 'Admin', email: 'race@race.test' };

  let begun = 0;
  let release: () => void = () => undefined;
  const allBegun = new Promise<void>((resolve) => (release = resolve));
  const together = async (tx: Queryable) => {
    if (!options.barrier) return;
    await tx.query('select 1');
    if (++begun === options.attempts) release();
    await allBegun;
  };

  const unexpected: string[] = [];
  const attempt = async (userId: string): Promise<boolean> => {
    try {
      return await db.transaction(async (tx) => {
        await together(tx);
        switch (options.mode) {
          case 'locked': {
            const result = await createLicenseRepository(tx).assignUsers({
              licenseBlockId,
              organisationId,
              userIds: [userId],
              actor,
            });
            if (!result.ok && result.reason !== 'seats') unexpected.push(result.reason);
            return result.ok;
          }
          case 'constraint-only':
            await tx.query(
              'insert into license_block_users (license_block_id, user_id) values ($1, $2)',
              [licenseBlockId, userId],
            );
            return true;
          case 'naive': {
            const taken = await tx.query<{ n: number }>(
              'select count(*)::int as n from license_block_users where license_block_id = $1',
              [licenseBlockId],
            );
            // The time an application spends between its check and its write, made visible.
            await tx.query('select pg_sleep(0.005)');
            if (taken.rows[0]!.n >= options.seats) return false;
            await tx.query(
              'insert into license_block_users (license_block_id, user_id) values ($1, $2)',
              [licenseBlockId, userId],
            );
            return true;
          }
        }
      });
    } catch (error) {
      if (!isSeatCheck(error)) unexpected.push(String((error as Error).message ?? error));
      return false;
    }
  };

  const results = await Promise.all(userIds.map(attempt));
  const after = await db.query<{ rows: number; seats_used: number }>(
    `select (select count(*)::int from license_block_users where license_block_id = $1) as rows,
            seats_used from license_blocks where id = $1`,
    [licenseBlockId],
  );
  return {
    successes: results.filter(Boolean).length,
    seatRows: after.rows[0]!.rows,
    seatsUsed: after.rows[0]!.seats_used,
    unexpected,
  };
}
