import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Queryable } from '../../../src/db/driver';
import { createCounterBatcher } from '../../../src/plugins/app/rate-limit-store';
import { createMigratedTestDatabase, type TestDatabase } from '../../helper';

const WINDOW_MS = 60_000;

type Counted = { current: number; ttl: number };

/** The database as the store sees it, counting the statements it is sent. */
function countingDb(db: Queryable, beforeEach: (n: number) => void = () => undefined) {
  const sent = { statements: 0 };
  const wrapped: Queryable = {
    query: (sql, params) => {
      sent.statements += 1;
      beforeEach(sent.statements);
      return db.query(sql, params);
    },
    exec: (sql) => db.exec(sql),
  };
  return { db: wrapped, sent };
}

const incr = (batcher: ReturnType<typeof createCounterBatcher>, key: string) =>
  new Promise<Counted>((resolve, reject) =>
    batcher.incr(key, WINDOW_MS, (error, result) => (error ? reject(error) : resolve(result!))),
  );
const read = (batcher: ReturnType<typeof createCounterBatcher>, key: string) =>
  new Promise<Counted>((resolve, reject) =>
    batcher.read(key, (error, result) => (error ? reject(error) : resolve(result!))),
  );

/**
 * Issue #24 point 2: the shared rate-limit counters cost one statement per request, and every
 * signed-in request made two. The store now sends what arrives while a statement is out in the
 * next one; each request still gets the exact count its increment made.
 */
describe('rate-limit counters counted in batches', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createMigratedTestDatabase();
  });
  after(async () => {
    await database?.db.close();
    await database?.dispose();
  });
  beforeEach(async () => {
    await database.db.query('delete from rate_limit_counters');
  });

  test('requests of one turn share one statement, each with the count its increment made', async () => {
    const { db, sent } = countingDb(database.db);
    const batcher = createCounterBatcher(db);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => incr(batcher, 'polling:user:a')),
    );
    assert.equal(sent.statements, 1);
    assert.deepEqual(
      answers.map((a) => a.current),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    for (const { ttl } of answers) assert.ok(ttl > 0 && ttl <= WINDOW_MS, `ttl ${ttl}`);
    const stored = await database.db.query<{ hits: number }>(
      `select hits from rate_limit_counters where key = 'polling:user:a'`,
    );
    assert.equal(stored.rows[0]?.hits, 50);
  });

  test('what arrives while a statement is out goes with the next one', async () => {
    const late: Array<Promise<Counted>> = [];
    const { db, sent } = countingDb(database.db, (n) => {
      // As the first statement goes out, ten more requests arrive.
      if (n === 1) for (let i = 0; i < 10; i++) late.push(incr(batcher, 'upload:user:b'));
    });
    const batcher = createCounterBatcher(db);
    const early = await Promise.all(
      Array.from({ length: 5 }, () => incr(batcher, 'upload:user:b')),
    );
    const rest = await Promise.all(late);
    assert.equal(sent.statements, 2);
    assert.deepEqual(
      [...early, ...rest].map((a) => a.current),
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
  });

  test('a read answers the count without counting, and nothing for a key never counted', async () => {
    const batcher = createCounterBatcher(database.db);
    assert.deepEqual(await read(batcher, 'refused:198.51.100.7'), { current: 0, ttl: 0 });
    await Promise.all([
      incr(batcher, 'refused:198.51.100.7'),
      incr(batcher, 'refused:198.51.100.7'),
    ]);
    const [first, second] = await Promise.all([
      read(batcher, 'refused:198.51.100.7'),
      read(batcher, 'refused:198.51.100.7'),
    ]);
    assert.equal(first!.current, 2);
    assert.deepEqual(second, first);
    assert.equal((await read(batcher, 'refused:198.51.100.7')).current, 2);
  });

  test('a key whose window is over starts a new one', async () => {
    await database.db.query(
      `insert into rate_limit_counters (key, window_start, window_end, hits)
       values ('default:user:c', 0, 1000, 99)`,
    );
    const batcher = createCounterBatcher(database.db);
    const [a, b] = await Promise.all([
      incr(batcher, 'default:user:c'),
      incr(batcher, 'default:user:c'),
    ]);
    assert.deepEqual([a!.current, b!.current], [1, 2]);
    assert.ok(a!.ttl > WINDOW_MS - 5_000);
  });

  test('two processes counting the same keys in opposite orders share one total', async () => {
    const keys = Array.from(
      { length: 20 },
      (_, i) => `polling:user:k${String(i).padStart(2, '0')}`,
    );
    const first = createCounterBatcher(database.db);
    const second = createCounterBatcher(database.db);
    const rounds = 5;
    const all: Array<Promise<Counted>> = [];
    for (let round = 0; round < rounds; round++) {
      for (const key of keys) all.push(incr(first, key));
      for (const key of [...keys].reverse()) all.push(incr(second, key));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(all);
    const { rows } = await database.db.query<{ hits: number }>(
      `select hits from rate_limit_counters where key like 'polling:user:k%' order by key`,
    );
    assert.deepEqual(
      rows.map((r) => r.hits),
      keys.map(() => 2 * rounds),
    );
  });

  test('a failed statement fails each of its requests, and the next batch is sent', async () => {
    let fail = true;
    const failing: Queryable = {
      query: (sql, params) => {
        if (fail) {
          fail = false;
          return Promise.reject(new Error('connection lost'));
        }
        return database.db.query(sql, params);
      },
      exec: (sql) => database.db.exec(sql),
    };
    const batcher = createCounterBatcher(failing);
    const outcomes = await Promise.allSettled([
      incr(batcher, 'default:user:d'),
      read(batcher, 'refused:192.0.2.1'),
    ]);
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'ok')),
      ['connection lost', 'connection lost'],
    );
    assert.equal((await incr(batcher, 'default:user:d')).current, 1);
  });
});
