import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPgDb, POLLED_TIMEOUTS } from '../../src/db/pg-driver';

const url = process.env.TEST_DATABASE_URL;

/**
 * The polled reads go one batch at a time per process, so a statement that never finishes must
 * not hold up that process's later batches: the server cancels it, or the client gives up on it
 * and drops its connection; either way the next polled read is answered.
 */
describe(
  'polled reads are bounded in time',
  { skip: url ? false : 'PostgreSQL only (TEST_DATABASE_URL)' },
  () => {
    test('by default a polled statement may run 5 s and be waited for 15 s; the main pool has no limit', () => {
      assert.deepEqual(POLLED_TIMEOUTS, { statementMs: 5_000, answerMs: 15_000 });
    });

    test('PostgreSQL cancels a polled statement past its limit; the next one is answered', async () => {
      const db = createPgDb({
        connectionString: url!,
        polledTimeouts: { statementMs: 300, answerMs: 10_000 },
      });
      try {
        // Connected first: the bound is on the statement, and a connection's set-up on a busy
        // machine (a fork and a SCRAM exchange) must not count against it.
        await db.polled!.query('select 1');
        const started = Date.now();
        await assert.rejects(db.polled!.query('select pg_sleep(3)'), { code: '57014' });
        assert.ok(Date.now() - started < 2_000, 'cancelled, not waited out');
        assert.deepEqual((await db.polled!.query('select 1 as one')).rows, [{ one: 1 }]);
        // The main pool's statements are not limited (exports and migrations run long).
        await db.query('select pg_sleep(0.5)');
      } finally {
        await db.close();
      }
    });

    test('the client gives up on an answer that does not come; the next polled read is answered', async () => {
      const db = createPgDb({
        connectionString: url!,
        polledTimeouts: { statementMs: 10_000, answerMs: 300 },
      });
      try {
        await db.polled!.query('select 1');
        const started = Date.now();
        await assert.rejects(db.polled!.query('select pg_sleep(3)'), /timeout/i);
        assert.ok(Date.now() - started < 2_000, 'given up, not waited out');
        assert.deepEqual((await db.polled!.query('select 2 as two')).rows, [{ two: 2 }]);
      } finally {
        await db.close();
      }
    });
  },
);
