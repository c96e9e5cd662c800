import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepRateLimitCounters } from '../../src/plugins/app/rate-limit-store';
import { account, authHeader } from '../helper';
import { NEEDS_POSTGRES, startTwoInstances, type TwoInstances } from './two-instances';

/**
 * Issue #24 point 1: the rate-limit budgets are the same however many instances serve. On
 * PostgreSQL the counters live in the database, so requests spread over A and B spend one budget.
 */
describe('rate limits shared by two API instances', { skip: NEEDS_POSTGRES }, () => {
  let two: TwoInstances;
  const POLLING = 10;
  const ANONYMOUS = 6;
  const learner = account('learner', 'Demo Hospital');

  before(async () => {
    two = await startTwoInstances({
      rateLimitEnabled: true,
      rateLimitPolling: POLLING,
      rateLimitAnonymousPerAddress: ANONYMOUS,
    });
  });
  after(() => two?.close());

  test('a user polling through A and B in turn gets the configured total, not twice it', async () => {
    const headers = await authHeader(learner.sub);
    const statuses: number[] = [];
    for (let i = 0; i < 2 * POLLING; i++) {
      const instance = i % 2 === 0 ? two.a : two.b;
      statuses.push((await instance.inject({ url: '/api/v1/user/whoami', headers })).statusCode);
    }
    assert.deepEqual(statuses, [
      ...Array<number>(POLLING).fill(200),
      ...Array<number>(POLLING).fill(429),
    ]);
    const refused = await two.b.inject({ url: '/api/v1/user/whoami', headers });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.match(refused.json<{ detail: string }>().detail, /Too many requests/);
    // Another user's budget is untouched.
    const other = await two.b.inject({
      url: '/api/v1/user/whoami',
      headers: await authHeader(account('educator', 'Demo Hospital').sub),
    });
    assert.equal(other.statusCode, 200);
  });

  test("refused tokens from one address, spread over A and B, spend that address's one budget", async () => {
    const bad = { authorization: 'Bearer not-a-token' };
    const statuses: number[] = [];
    for (let i = 0; i < ANONYMOUS + 2; i++) {
      const instance = i % 2 === 0 ? two.a : two.b;
      const res = await instance.inject({ url: '/api/v1/user/whoami', headers: bad, remoteAddress: '203.0.113.9' });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [...Array<number>(ANONYMOUS).fill(401), 429, 429]);
  });

  test('counters whose window is over are swept', async () => {
    await two.db.query(
      `insert into rate_limit_counters (key, window_start, window_end, hits)
       values ('polling:user:old', 0, 60000, 3)`,
    );
    assert.ok((await sweepRateLimitCounters(two.db)) >= 1);
    const left = await two.db.query(`select key from rate_limit_counters where key = 'polling:user:old'`);
    assert.equal(left.rowCount, 0);
    // The current windows stay.
    const current = await two.db.query<{ n: number }>('select count(*)::int as n from rate_limit_counters');
    assert.ok(current.rows[0]!.n > 0);
  });
});
