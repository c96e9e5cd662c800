/**
 * Seat race benchmark (issue #8): TRIALS × ATTEMPTS concurrent seat assignments against SEATS
 * seats, in each of the three ways of bench/lib/seat-race.ts, and what each gave.
 *
 *   pnpm --filter @portal/api bench:seats                          # PGlite (in memory)
 *   TEST_DATABASE_URL=postgres://… pnpm --filter @portal/api bench:seats   # PostgreSQL
 *   … bench:seats -- --trials 50 --attempts 100 --seats 10
 *
 * On PostgreSQL it works in a schema of its own, dropped at the end. Exits 1 when the API's way
 * or the database alone ever let more than SEATS through (or fewer, with users left waiting).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Db } from '../src/db/driver';
import { migrate } from '../src/db/migrate';
import { createPgDb } from '../src/db/pg-driver';
import { createPgliteDb } from '../src/db/pglite-driver';
import { seedReferenceData } from '../src/reference/seed-reference-data';
import { seatRaceTrial, setSeatTriggers, type SeatRaceMode } from './lib/seat-race';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    attempts: { type: 'string', default: '50' },
    seats: { type: 'string', default: '10' },
  },
});
const trials = Number(values.trials);
const attempts = Number(values.attempts);
const seats = Number(values.seats);
const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

async function open(): Promise<{ db: Db; label: string; close(): Promise<void> }> {
  if (!url) {
    const db = await createPgliteDb('memory://');
    return {
      db,
      label: 'PGlite (one transaction at a time: no real race)',
      close: () => db.close(),
    };
  }
  const schema = `bench_seats_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  // One connection per attempt, so every attempt is in its transaction at the same time.
  const db = createPgDb({ connectionString: url, searchPath: schema, max: attempts });
  return {
    db,
    label: `PostgreSQL (${attempts} connections, schema ${schema})`,
    async close() {
      await db.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

const target = await open();
let failed = false;
try {
  await migrate(target.db);
  await seedReferenceData(target.db);
  console.log(
    `Seat race on ${target.label}: ${trials} trials × ${attempts} concurrent assignments, ${seats} seats`,
  );
  console.log(
    'mode             successes per trial (min–max)   trials with exactly the seats   time',
  );
  const modes: SeatRaceMode[] = url
    ? ['locked', 'constraint-only', 'naive']
    : ['locked', 'constraint-only'];
  for (const mode of modes) {
    if (mode === 'naive') await setSeatTriggers(target.db, false);
    const started = performance.now();
    const successes: number[] = [];
    const problems: string[] = [];
    for (let i = 0; i < trials; i++) {
      const trial = await seatRaceTrial(target.db, {
        mode,
        attempts,
        seats,
        barrier: Boolean(url),
      });
      successes.push(trial.successes);
      problems.push(...trial.unexpected);
      if (mode !== 'naive' && (trial.seatRows !== seats || trial.seatsUsed !== seats)) {
        problems.push(`trial ${i + 1}: ${trial.seatRows} seat rows, seats_used ${trial.seatsUsed}`);
      }
    }
    if (mode === 'naive') await setSeatTriggers(target.db, true);
    const exact = successes.filter((n) => n === seats).length;
    const ms = Math.round(performance.now() - started);
    console.log(
      `${mode.padEnd(16)} ${`${Math.min(...successes)}–${Math.max(...successes)}`.padEnd(32)} ${`${exact}/${trials}`.padEnd(31)} ${ms} ms`,
    );
    if (mode !== 'naive' && (exact !== trials || problems.length > 0)) {
      failed = true;
      for (const p of new Set(problems)) console.log(`  ${mode}: ${p}`);
    }
  }
  console.log(
    failed
      ? 'FAIL: a licence was overbooked or seats were refused while free'
      : `PASS: the API's assignment and the database alone gave exactly ${seats} seats in every trial` +
          (url ? '; the naive check-then-insert overbooks' : ''),
  );
} finally {
  await target.close();
}
process.exit(failed ? 1 : 0);
