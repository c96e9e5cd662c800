import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config';
import { RATE_CLASSES, tooManyRequests } from '../../src/plugins/app/rate-limit';
import { authHeader, buildTestApp, type TestApp } from '../helper';
import {
  createSession,
  educator,
  join,
  learner,
  sessionHeader,
  sysadmin,
} from '../routes/api/v1/simulator/session-fixtures';

/** Small budgets so a test can spend them; a window far longer than any test. */
const LIMITS: Partial<Config> = {
  rateLimitEnabled: true,
  rateLimitWindowMs: 10 * 60_000,
  rateLimitDefault: 3,
  rateLimitPolling: 6,
  rateLimitSessionCreate: 2,
  rateLimitUpload: 2,
  rateLimitAddressUsers: 100,
};

function assertLimited(res: LightMyRequestResponse, max: number) {
  assert.equal(res.statusCode, 429, res.body);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600, `${retryAfter}`);
  assert.deepEqual(res.json(), { detail: tooManyRequests(retryAfter) });
  assert.match(
    res.json<{ detail: string }>().detail,
    /^Too many requests\. Please wait \d+ seconds?/,
  );
  assert.equal(res.headers['x-ratelimit-limit'], String(max));
  assert.equal(res.headers['x-ratelimit-remaining'], '0');
}

describe('rate limits', () => {
  const apps: TestApp[] = [];
  const app = async (overrides: Partial<Config> = {}) => {
    const t = await buildTestApp({ ...LIMITS, ...overrides });
    apps.push(t);
    return t;
  };
  after(async () => {
    for (const t of apps) await t.close();
  });

  const get = async (t: TestApp, url: string, sub?: string, extra: Record<string, string> = {}) =>
    t.app.inject({
      url,
      headers: { ...(sub ? await authHeader(sub) : {}), ...extra },
      ...(extra['x-test-address'] ? { remoteAddress: extra['x-test-address'] } : {}),
    });

  describe('per user', () => {
    let t: TestApp;
    before(async () => {
      t = await app();
    });

    test('the default budget runs out after N calls with 429, a clear detail and Retry-After', async () => {
      for (let i = 0; i < 3; i += 1) {
        const res = await get(t, '/api/v1/lookup?field=country', learner.sub);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['x-ratelimit-remaining'], String(2 - i));
      }
      assertLimited(await get(t, '/api/v1/lookup?field=country', learner.sub), 3);
      // Every default route draws from the same budget.
      assertLimited(await get(t, '/api/v1/product', learner.sub), 3);
    });

    test('another user from the same address still has their own budget', async () => {
      const res = await get(t, '/api/v1/lookup?field=country', educator.sub);
      assert.equal(res.statusCode, 200, res.body);
    });

    test('polling has its own, larger budget: whoami and session status still answer', async () => {
      const session = await createSession(t);
      const status = `/api/v1/product/${session.productId}/session/${session.uuid}/status`;
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await get(t, '/api/v1/user/whoami', learner.sub)).statusCode, 200);
        assert.equal((await get(t, status, learner.sub)).statusCode, 200);
      }
      assertLimited(await get(t, '/api/v1/user/whoami', learner.sub), 6);
      assertLimited(await get(t, status, learner.sub), 6);
    });

    test('creating sessions is strict', async () => {
      // The learner's creation budget (2) is separate from their spent default budget.
      const t2 = await app();
      await createSession(t2);
      await createSession(t2);
      await assert.rejects(createSession(t2), /429/);
      const rows = await t2.db.query('select count(*)::int as n from simulation_sessions');
      assert.deepEqual(rows.rows, [{ n: 2 }], 'the refused creation wrote nothing');
    });

    test('a simulator is limited per session, not per learner', async () => {
      const t2 = await app();
      const first = await createSession(t2);
      const second = await createSession(t2);
      const call = (token: string) =>
        t2.app.inject({
          method: 'POST',
          url: '/api/v1/simulator/session/evidence',
          headers: sessionHeader(token),
          payload: {},
        });
      // Refused calls (400: not a form) count too: a looping simulator is stopped either way.
      assert.equal((await join(t2, first.token)).statusCode, 200);
      assert.equal((await call(first.token)).statusCode, 400);
      assert.equal((await call(first.token)).statusCode, 400);
      assertLimited(await call(first.token), 2);
      assert.equal((await join(t2, second.token)).statusCode, 200);
      assert.equal((await call(second.token)).statusCode, 400);
    });
  });

  describe('per address', () => {
    test('an address spends RATE_LIMIT_ADDRESS_USERS budgets, whoever signs in', async () => {
      const t = await app({ rateLimitAddressUsers: 2 });
      const from = (address: string) => ({ 'x-test-address': address });
      for (const sub of [learner.sub, educator.sub]) {
        for (let i = 0; i < 3; i += 1) {
          const res = await get(t, '/api/v1/lookup?field=country', sub, from('198.51.100.7'));
          assert.equal(res.statusCode, 200);
        }
      }
      // 2 × 3 spent from this address: a third user with a full budget of their own is refused.
      assertLimited(await get(t, '/api/v1/product', sysadmin.sub, from('198.51.100.7')), 6);
      assert.equal(
        (await get(t, '/api/v1/product', sysadmin.sub, from('198.51.100.8'))).statusCode,
        200,
      );
    });

    test('requests without a token are counted before authentication', async () => {
      const t = await app({ rateLimitAddressUsers: 1 });
      for (let i = 0; i < 3; i += 1) {
        const res = await get(t, '/api/v1/user/whoami', undefined, {
          'x-test-address': '203.0.113.9',
        });
        assert.equal(res.statusCode, 401);
      }
      // Polling budget 6: three more, then the address is refused before its token is looked at.
      for (let i = 0; i < 3; i += 1) {
        await get(t, '/api/v1/user/whoami', undefined, { 'x-test-address': '203.0.113.9' });
      }
      assertLimited(
        await get(t, '/api/v1/user/whoami', learner.sub, { 'x-test-address': '203.0.113.9' }),
        6,
      );
      for (let i = 0; i < 3; i += 1)
        await get(t, '/nowhere', undefined, { 'x-test-address': '203.0.113.10' });
      assertLimited(await get(t, '/nowhere', undefined, { 'x-test-address': '203.0.113.10' }), 3);
    });

    test('X-Forwarded-For names the address only behind a trusted proxy', async () => {
      const spoofed = async (t: TestApp, i: number) =>
        get(t, '/api/v1/lookup?field=country', undefined, {
          'x-forwarded-for': `192.0.2.${i}`,
          'x-test-address': '127.0.0.1',
        });
      // Untrusted: every request is the proxy's (or attacker's) own address, whatever it claims.
      const open = await app({ rateLimitAddressUsers: 1 });
      for (let i = 1; i <= 3; i += 1) assert.equal((await spoofed(open, i)).statusCode, 401);
      assertLimited(await spoofed(open, 4), 3);

      // Trusted loopback proxy: each forwarded address has its own budget.
      const proxied = await app({ rateLimitAddressUsers: 1, trustProxy: ['loopback'] });
      for (let i = 1; i <= 6; i += 1) assert.equal((await spoofed(proxied, i)).statusCode, 401);
    });
  });

  test('RATE_LIMIT_ENABLED=false turns every limit off', async () => {
    const t = await app({ rateLimitEnabled: false });
    for (let i = 0; i < 10; i += 1) {
      const res = await get(t, '/api/v1/lookup?field=country', learner.sub);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
    }
  });

  test('every route named in the class table exists, with that class', async () => {
    const t = await app();
    await t.app.ready();
    for (const [route, rateClass] of Object.entries(RATE_CLASSES)) {
      const found = t.app.routeRateClasses.find((r) => `${r.method} ${r.url}` === route);
      assert.equal(found?.rateClass, rateClass, route);
    }
  });
});
