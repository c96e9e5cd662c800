import assert from 'node:assert/strict';
import { buildApp, type App } from '../../src/app';
import type { Config } from '../../src/config';
import type { Db } from '../../src/db/driver';
import { createPgDb } from '../../src/db/pg-driver';
import { createMigratedTestDatabase, testConfig, testJwks } from '../helper';

/** Why the scale-out suites skip without PostgreSQL (PGlite is one process by design). */
export const NEEDS_POSTGRES = process.env.TEST_DATABASE_URL
  ? false
  : 'several API instances need PostgreSQL (TEST_DATABASE_URL)';

export interface TwoInstances {
  /** Two API instances, each with its own pool and change-notice connection, on one database. */
  a: App;
  b: App;
  /** A's pool, for the test's own reads. */
  db: Db;
  close(): Promise<void>;
}

/** Two instances of the real app on one fresh PostgreSQL database, as API_INSTANCES=2 runs them. */
export async function startTwoInstances(overrides: Partial<Config> = {}): Promise<TwoInstances> {
  const database = await createMigratedTestDatabase();
  assert.ok(database.url, 'a PostgreSQL test database');
  const second = createPgDb({ connectionString: database.url, max: 4 });
  const start = (db: Db) => buildApp({ config: testConfig(overrides), db, jwks: testJwks });
  const a = await start(database.db);
  const b = await start(second);
  await Promise.all([a.ready(), b.ready()]);
  return {
    a,
    b,
    db: database.db,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await database.dispose();
    },
  };
}

/**
 * Asks `check` every 10 ms until it holds, and answers how many milliseconds that took; fails
 * once `withinMs` has passed.
 */
export async function holdsWithin(
  check: () => Promise<boolean>,
  withinMs: number,
  what: string,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    const elapsed = performance.now() - started;
    assert.ok(elapsed < withinMs, `${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
