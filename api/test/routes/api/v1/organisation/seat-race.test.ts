import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  seatRaceTrial,
  setSeatTriggers,
  type SeatRaceMode,
} from '../../../../../bench/lib/seat-race';
import type { Db } from '../../../../../src/db/driver';
import { migrate } from '../../../../../src/db/migrate';
import { createPgDb } from '../../../../../src/db/pg-driver';
import { seedReferenceData } from '../../../../../src/reference/seed-reference-data';
import { createTestDatabase, type TestDatabase } from '../../../../helper';

/**
 * Issue #8: 50 concurrent assignments against 10 seats, 20 trials, exactly 10 succeed each time.
 * On PostgreSQL (TEST_DATABASE_URL) every attempt has its own connection and all of them are
 * inside their transactions before any goes on, so they truly race. PGlite runs one transaction
 * at a time, so there the test checks the same outcome without a race.
 */
const ATTEMPTS = 50;
const SEATS = 10;
const TRIALS = 20;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('seat race', () => {
  let database: TestDatabase;
  /** A pool with a connection per attempt on PostgreSQL; the test database itself on PGlite. */
  let racing: Db;

  before(async () => {
    database = await createTestDatabase();
    await migrate(database.db);
    await seedReferenceData(database.db);
    if (onPostgres) {
      const schema = (await database.db.query<{ s: string }>('select current_schema() as s'))
        .rows[0]!.s;
      racing = createPgDb({
        connectionString: process.env.TEST_DATABASE_URL!,
        searchPath: schema,
        max: ATTEMPTS,
      });
    } else {
      racing = database.db;
    }
  });
  after(async () => {
    if (racing !== database.db) await racing.close();
    await database.db.close();
    await database.dispose();
  });

  const trials = async (mode: SeatRaceMode) => {
    const outcomes = [];
    for (let i = 0; i < TRIALS; i++) {
      outcomes.push(
        await seatRaceTrial(racing, {
          mode,
          attempts: ATTEMPTS,
          seats: SEATS,
          barrier: onPostgres,
        }),
      );
    }
    for (const o of outcomes) assert.deepEqual(o.unexpected, []);
    return outcomes;
  };

  test(`assignUsers: ${TRIALS} trials of ${ATTEMPTS} concurrent assignments to ${SEATS} seats, exactly ${SEATS} succeed each time`, async (tc) => {
    const outcomes = await trials('locked');
    tc.diagnostic(`successes per trial: ${outcomes.map((o) => o.successes).join(' ')}`);
    for (const o of outcomes) {
      assert.equal(o.successes, SEATS);
      assert.equal(o.seatRows, SEATS);
      assert.equal(o.seatsUsed, SEATS);
    }
  });

  test('the database alone refuses the eleventh seat, whatever the code does', async (tc) => {
    const outcomes = await trials('constraint-only');
    tc.diagnostic(`successes per trial: ${outcomes.map((o) => o.successes).join(' ')}`);
    for (const o of outcomes) {
      assert.equal(o.successes, SEATS);
      assert.equal(o.seatRows, SEATS);
      assert.equal(o.seatsUsed, SEATS);
    }
  });

  test(
    'without the seat invariant, check-then-insert overbooks (the race is real)',
    { skip: onPostgres ? false : 'PGlite runs one transaction at a time, so nothing races' },
    async (tc) => {
      await setSeatTriggers(database.db, false);
      try {
        const outcomes = await trials('naive');
        tc.diagnostic(`successes per trial: ${outcomes.map((o) => o.successes).join(' ')}`);
        assert.ok(
          outcomes.every((o) => o.seatRows > SEATS),
          'every trial overbooks without the lock and check',
        );
      } finally {
        await setSeatTriggers(database.db, true);
      }
    },
  );
});
