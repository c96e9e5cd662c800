import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createDb } from '../../src/db/create-db';

const url = process.env.TEST_DATABASE_URL;

/** DATABASE_POOL_SIZE reaches the PostgreSQL pool: a third statement waits for one of two. */
describe(
  'database pool size',
  { skip: url ? false : 'PostgreSQL only (TEST_DATABASE_URL)' },
  () => {
    test('no more connections than DATABASE_POOL_SIZE are opened', async () => {
      const db = await createDb({ databaseUrl: url, databasePoolSize: 2, pgliteDir: 'unused' });
      try {
        const sleeping = [1, 2, 3].map(() => db.query('select pg_sleep(0.3)'));
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(db.poolStats?.(), { total: 2, idle: 0, waiting: 1, max: 2 });
        await Promise.all(sleeping);
      } finally {
        await db.close();
      }
    });
  },
);
