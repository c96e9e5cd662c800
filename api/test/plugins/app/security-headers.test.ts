import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { authHeader, buildTestApp, type TestApp } from '../../helper';
import { FILE_CSP } from '../../../src/routes/api/v1/storage/index';

const API_POLICY = "default-src 'none';frame-ancestors 'none';object-src 'none';base-uri 'none'";

function assertHardened(headers: Record<string, unknown>, what: string) {
  assert.equal(headers['content-security-policy'], API_POLICY, what);
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.equal(headers['referrer-policy'], 'no-referrer', what);
  assert.equal(headers['x-frame-options'], 'DENY', what);
}

describe('security headers on every API answer', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('success, refusal, validation error, unknown route and the OpenAPI document', async () => {
    const answers = {
      healthz: await t.app.inject('/healthz'),
      whoami: await t.app.inject({ url: '/api/v1/user/whoami', headers: await authHeader('not-a-user') }),
      unauthenticated: await t.app.inject('/api/v1/user/whoami'),
      badPage: await t.app.inject({ url: '/api/v1/report/?page=zero', headers: await authHeader('x') }),
      unknown: await t.app.inject('/api/v1/nothing-here'),
      openapi: await t.app.inject('/api/docs/openapi.json'),
    };
    assert.equal(answers.healthz.statusCode, 200);
    assert.equal(answers.unauthenticated.statusCode, 401);
    assert.equal(answers.unknown.statusCode, 404);
    for (const [what, response] of Object.entries(answers)) {
      assert.ok(response.statusCode < 500, `${what}: ${response.statusCode}`);
      assertHardened(response.headers, what);
      assert.equal(response.headers['strict-transport-security'], undefined, `${what}: no HSTS over http`);
    }
  });

  test("a route's own policy wins: stored files keep their sandbox", async () => {
    await t.app.storage.put('test/hello.txt', Buffer.from('<script>alert(1)</script>'));
    const url = await t.app.storage.signedUrl('test/hello.txt', { contentType: 'text/plain', downloadName: 'hello.txt' });
    const file = await t.app.inject(url);
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-security-policy'], FILE_CSP);
    assert.equal(file.headers['x-content-type-options'], 'nosniff');
    assert.equal(file.headers['referrer-policy'], 'no-referrer', 'what the route left unset is still added');
  });

  test('X-Forwarded-Proto https is believed for HSTS only from a trusted proxy', async () => {
    const forged = await t.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(forged.headers['strict-transport-security'], undefined);
    const behindProxy = await buildTestApp({ trustProxy: ['loopback'] });
    try {
      const https = await behindProxy.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      assert.match(String(https.headers['strict-transport-security']), /^max-age=31536000/);
      assertHardened(https.headers, 'https');
      const http = await behindProxy.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'http' } });
      assert.equal(http.headers['strict-transport-security'], undefined);
    } finally {
      await behindProxy.close();
    }
  });
});
