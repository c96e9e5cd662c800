import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
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
  rateLimitLtiPerAddress: 100,
  rateLimitAnonymousPerAddress: 100,
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

  describe('one school behind one address', () => {
    const school = { 'x-test-address': '198.51.100.7' };

    test('each signed-in user has their own budgets, however many share the address', async () => {
      // A per-address budget of 3 would stop the second user at once: none applies to them.
      const t = await app({ rateLimitAnonymousPerAddress: 3, rateLimitLtiPerAddress: 3 });
      for (const sub of [learner.sub, educator.sub, sysadmin.sub]) {
        for (let i = 0; i < 3; i += 1) {
          const res = await get(t, '/api/v1/lookup?field=country', sub, school);
          assert.equal(res.statusCode, 200, `${sub} #${i + 1}: ${res.body}`);
        }
        assertLimited(await get(t, '/api/v1/product', sub, school), 3);
      }
    });

    test('two learners polling from one address each get the whole polling budget', async () => {
      const t = await app({ rateLimitAnonymousPerAddress: 3 });
      for (const sub of [learner.sub, educator.sub]) {
        for (let i = 0; i < 6; i += 1) {
          assert.equal((await get(t, '/api/v1/user/whoami', sub, school)).statusCode, 200);
        }
      }
      assertLimited(await get(t, '/api/v1/user/whoami', learner.sub, school), 6);
      assertLimited(await get(t, '/api/v1/user/whoami', educator.sub, school), 6);
    });
    test('a class of 30 learners behind one address all poll at full budget', async () => {
      // Once an address could spend 20 users' budgets (RATE_LIMIT_ADDRESS_USERS): a school's
      // 21st learner was refused for their classmates' polling.
      const t = await app();
      const learners = Array.from({ length: 30 }, () => randomUUID());
      for (const sub of learners) {
        await t.db.query(
          `insert into users (id, email, first_name, last_name, organisation_id, role_id)
           values ($1, $2, 'Class', 'Member', (select id from organisations where name = 'Demo Hospital'),
                   (select id from roles where name = 'learner'))`,
          [sub, `${sub}@class.test`],
        );
      }
      for (const sub of learners) {
        const headers = { ...(await authHeader(sub)), ...school };
        for (let i = 0; i < 6; i += 1) {
          const res = await t.app.inject({
            url: '/api/v1/user/whoami',
            headers,
            remoteAddress: school['x-test-address'],
          });
          assert.equal(res.statusCode, 200, `learner ${learners.indexOf(sub) + 1}, poll ${i + 1}`);
        }
      }
    });
  });

  describe('per address: what nobody is signed in for', () => {
    const from = (address: string) => ({ 'x-test-address': address });

    test('requests without a token share one budget per address, checked before authentication', async () => {
      const t = await app({ rateLimitAnonymousPerAddress: 4 });
      for (const url of ['/api/v1/user/whoami', '/api/v1/product', '/nowhere', '/healthz']) {
        const res = await get(t, url, undefined, from('203.0.113.9'));
        assert.notEqual(res.statusCode, 429, url);
      }
      assertLimited(await get(t, '/api/v1/product', undefined, from('203.0.113.9')), 4);
      assertLimited(await get(t, '/healthz', undefined, from('203.0.113.9')), 4);
      assert.equal((await get(t, '/healthz', undefined, from('203.0.113.10'))).statusCode, 200);
    });

    test('refused tokens count once refused; then the address waits before any token is checked', async () => {
      const t = await app({ rateLimitAnonymousPerAddress: 3 });
      const bad = { authorization: 'Bearer not-a-token', ...from('203.0.113.20') };
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await get(t, '/api/v1/product', undefined, bad)).statusCode, 401);
      }
      assertLimited(await get(t, '/api/v1/product', undefined, bad), 3);
      // Even a good token from that address waits now: its check is what a flood would cost.
      assertLimited(await get(t, '/api/v1/product', learner.sub, from('203.0.113.20')), 3);
      assert.equal(
        (await get(t, '/api/v1/product', learner.sub, from('203.0.113.21'))).statusCode,
        200,
      );
      // Good tokens never spend the address's budget.
      const other = from('203.0.113.22');
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await get(t, '/api/v1/product', educator.sub, other)).statusCode, 200);
      }
      const worse = { ...other, authorization: 'Bearer not-a-token' };
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await get(t, '/api/v1/product', undefined, worse)).statusCode, 401);
      }
      assertLimited(await get(t, '/api/v1/product', undefined, worse), 3);
    });

    test('requests without a token do not stop the signed-in users of their address', async () => {
      const t = await app({ rateLimitAnonymousPerAddress: 2 });
      for (let i = 0; i < 2; i += 1) await get(t, '/nowhere', undefined, from('203.0.113.30'));
      assertLimited(await get(t, '/api/v1/product', undefined, from('203.0.113.30')), 2);
      assert.equal(
        (await get(t, '/api/v1/product', learner.sub, from('203.0.113.30'))).statusCode,
        200,
      );
    });

    test('the LTI entry points have their own per-address budget', async () => {
      const t = await app({ rateLimitLtiPerAddress: 3, rateLimitAnonymousPerAddress: 100 });
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await get(t, '/api/lti/jwks', undefined, from('192.0.2.1'))).statusCode, 200);
      }
      assertLimited(await get(t, '/api/lti/jwks', undefined, from('192.0.2.1')), 3);
      assertLimited(await get(t, '/api/lti/login?iss=x', undefined, from('192.0.2.1')), 3);
      assert.equal((await get(t, '/api/lti/jwks', undefined, from('192.0.2.2'))).statusCode, 200);
      assert.equal((await get(t, '/healthz', undefined, from('192.0.2.1'))).statusCode, 200);
    });

    test('X-Forwarded-For names the address only behind a trusted proxy', async () => {
      const spoofed = async (t: TestApp, i: number) =>
        get(t, '/api/v1/lookup?field=country', undefined, {
          'x-forwarded-for': `192.0.2.${i}`,
          'x-test-address': '127.0.0.1',
        });
      // Untrusted: every request is the proxy's (or attacker's) own address, whatever it claims.
      const open = await app({ rateLimitAnonymousPerAddress: 3 });
      for (let i = 1; i <= 3; i += 1) assert.equal((await spoofed(open, i)).statusCode, 401);
      assertLimited(await spoofed(open, 4), 3);

      // Trusted proxy: each forwarded address has its own budget.
      const proxied = await app({ rateLimitAnonymousPerAddress: 3, trustProxy: ['127.0.0.1'] });
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
