import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { account, authHeader, buildTestApp, type TestApp } from '../helper';
import { ltiLaunch, registerPlatform } from '../lti/lti-fixtures';
import { createTestPlatform, serveJwks } from '../lti/platform-fixtures';
import { sample } from './metrics-text';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/**
 * GET /metrics (issue #24 point 3): only for `Authorization: Bearer $METRICS_TOKEN`, absent
 * without one; the series named in docs/deploy.md are there and move with the API's work.
 */
describe('metrics', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };

  before(async () => {
    t = await buildTestApp({ metricsToken: TOKEN });
  });
  after(async () => {
    await t.close();
  });

  test('without METRICS_TOKEN there is no /metrics', async () => {
    const without = await buildTestApp();
    try {
      const res = await without.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.statusCode, 404);
    } finally {
      await without.close();
    }
  });

  test('a missing, wrong or differently spelt token is 401', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      assert.equal(res.statusCode, 401, String(authorization));
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
      assert.doesNotMatch(res.body, /http_request_duration_seconds/);
    }
  });

  test('the right token gets Prometheus text with the named series', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    for (const series of [
      'http_request_duration_seconds',
      'db_query_duration_seconds',
      'outbox_items_pending',
      'outbox_oldest_item_age_seconds',
      'job_runs_total',
      'job_failures_total',
      'lti_launches_total',
      'cache_lookups_total',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      assert.match(res.body, new RegExp(`^# TYPE ${series} `, 'm'), series);
    }
    assert.match(res.body, /service="api"/);
    // The pool exists on PostgreSQL only (PGlite is one connection).
    if (t.db.kind === 'postgres') {
      assert.ok(sample(res.body, 'db_pool_connections', { state: 'max' }) > 0);
      assert.match(res.body, /^db_pool_waiting_queries\{/m);
    }
  });

  test('a request is counted under its route template, with its statements and cache look-ups', async () => {
    const learner = account('learner');
    const headers = await authHeader(learner.sub);
    const route = { route: '/api/v1/user/whoami', status_code: '200', method: 'GET' };
    const before = await scrape();
    assert.equal((await t.app.inject({ url: '/api/v1/user/whoami', headers })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/api/v1/user/whoami', headers })).statusCode, 200);
    const after = await scrape();
    assert.equal(
      sample(after, 'http_request_duration_seconds_count', route) -
        sample(before, 'http_request_duration_seconds_count', route),
      2,
    );
    // The raw URL never becomes a label; an unknown one is counted as unmatched.
    await t.app.inject({ url: '/api/v1/no-such-thing/12345' });
    const unknown = await scrape();
    assert.doesNotMatch(unknown, /no-such-thing/);
    assert.ok(sample(unknown, 'http_request_duration_seconds_count', { route: '(unmatched)' }) >= 1);
    // First call checks the token's signature, the second reuses it.
    const lookups = (text: string, cache: string, result: string) =>
      sample(text, 'cache_lookups_total', { cache, result });
    assert.equal(lookups(after, 'access_token', 'miss') - lookups(before, 'access_token', 'miss'), 1);
    assert.equal(lookups(after, 'access_token', 'hit') - lookups(before, 'access_token', 'hit'), 1);
    assert.ok(lookups(after, 'auth_user', 'hit') + lookups(after, 'auth_user', 'miss') > 0);
    assert.ok(
      sample(after, 'db_query_duration_seconds_count', { driver: t.db.kind, statement: 'select' }) >
        sample(before, 'db_query_duration_seconds_count', { driver: t.db.kind, statement: 'select' }),
    );
  });

  test('LTI launches are counted, refusals by their code', async () => {
    const platform = await createTestPlatform();
    const jwks = await serveJwks(() => [platform.publicJwk]);
    try {
      await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
      const before = await scrape();
      const accepted = await ltiLaunch(t.app, platform);
      assert.equal(accepted.pathname, '/lti/launch');
      const iat = Math.floor(Date.now() / 1000) + 3600;
      const refused = await ltiLaunch(t.app, platform, { iat, exp: iat + 300 });
      const code = refused.searchParams.get('error')!;
      const after = await scrape();
      const launches = (text: string, labels: Record<string, string>) =>
        sample(text, 'lti_launches_total', labels);
      assert.equal(launches(after, { outcome: 'accepted' }) - launches(before, { outcome: 'accepted' }), 1);
      assert.equal(
        launches(after, { outcome: 'refused', code }) - launches(before, { outcome: 'refused', code }),
        1,
      );
    } finally {
      await jwks.close();
    }
  });

  test('the outbox gauges show pending items by kind and the age of the oldest', async () => {
    await t.db.query(
      `insert into outbox (kind, key, payload, created_at, next_attempt_at)
       values ('metrics.test', 'k1', '{}', now() - interval '90 seconds', now() + interval '1 day'),
              ('metrics.test', 'k2', '{}', now(), now() + interval '1 day')`,
    );
    const text = await scrape();
    assert.equal(sample(text, 'outbox_items_pending', { kind: 'metrics.test' }), 2);
    const age = sample(text, 'outbox_oldest_item_age_seconds', { kind: 'metrics.test' });
    assert.ok(age >= 90 && age < 120, String(age));
    await t.db.query(`delete from outbox where kind = 'metrics.test'`);
  });
});
