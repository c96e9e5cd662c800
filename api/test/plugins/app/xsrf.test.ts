import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CSRF_FAILED } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../helper';

describe('double-submit XSRF', () => {
  let t: TestApp;
  const learner = account('learner');
  const url = `/api/v1/user/${learner.sub}/cookie-preference`;
  const payload = { allowEssentialCookies: true };

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  // A plain-http host that is not loopback: browsers would drop a Secure cookie there.
  const PLAIN_HTTP_HOST = { host: 'portal.example.test' };

  test('any response sets a readable XSRF-TOKEN cookie when the request had none', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: PLAIN_HTTP_HOST });
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    assert.ok(cookie, 'cookie set');
    assert.match(cookie.value, /^[0-9a-f]{64}$/);
    assert.equal(cookie.path, '/');
    assert.equal(cookie.sameSite, 'Lax');
    assert.notEqual(cookie.httpOnly, true);
  });

  test('the cookie is Secure only when the request came over https', async () => {
    const cookieOf = async (app: TestApp['app'], headers: Record<string, string>) =>
      (await app.inject({ url: '/healthz', headers: { ...PLAIN_HTTP_HOST, ...headers } })).cookies.find(
        (c) => c.name === 'XSRF-TOKEN',
      );
    // No proxy is trusted here: X-Forwarded-Proto from anyone is ignored.
    assert.notEqual((await cookieOf(t.app, {}))?.secure, true);
    assert.notEqual((await cookieOf(t.app, { 'x-forwarded-proto': 'https' }))?.secure, true);

    const proxied = await buildTestApp({ trustProxy: ['loopback'] });
    try {
      assert.equal((await cookieOf(proxied.app, { 'x-forwarded-proto': 'https' }))?.secure, true);
      assert.notEqual((await cookieOf(proxied.app, { 'x-forwarded-proto': 'http' }))?.secure, true);
      assert.notEqual((await cookieOf(proxied.app, {}))?.secure, true);
      // A proxy outside the trusted list cannot claim https either.
      const far = await proxied.app.inject({
        url: '/healthz',
        headers: { ...PLAIN_HTTP_HOST, 'x-forwarded-proto': 'https' },
        remoteAddress: '203.0.113.5',
      });
      assert.notEqual(far.cookies.find((c) => c.name === 'XSRF-TOKEN')?.secure, true);
    } finally {
      await proxied.close();
    }
  });

  test('the cookie is SameSite=None; Secure where browsers keep it, so the launch pages can write inside a platform iframe', async () => {
    const cookieOf = async (app: TestApp['app'], headers: Record<string, string>) =>
      (await app.inject({ url: '/healthz', headers })).cookies.find((c) => c.name === 'XSRF-TOKEN');
    for (const host of ['localhost:8080', '127.0.0.1:3000', '[::1]:8080']) {
      const cookie = await cookieOf(t.app, { host });
      assert.equal(cookie?.sameSite, 'None', host);
      assert.equal(cookie?.secure, true, host);
    }
    const proxied = await buildTestApp({ trustProxy: ['loopback'] });
    try {
      const cookie = await cookieOf(proxied.app, { ...PLAIN_HTTP_HOST, 'x-forwarded-proto': 'https' });
      assert.equal(cookie?.sameSite, 'None');
      assert.equal(cookie?.secure, true);
      assert.equal((await cookieOf(proxied.app, PLAIN_HTTP_HOST))?.sameSite, 'Lax');
    } finally {
      await proxied.close();
    }
  });

  test('a request that already has the cookie does not get a new one', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { cookie: 'XSRF-TOKEN=existing' } });
    assert.equal(res.cookies.length, 0);
  });

  test('an unsafe request with the cookie but no header is refused', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...(await authHeader(learner.sub)), cookie: 'XSRF-TOKEN=abc' },
      payload,
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: CSRF_FAILED });
  });

  test('an unsafe request whose header differs from the cookie is refused', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: {
        ...(await authHeader(learner.sub)),
        cookie: 'XSRF-TOKEN=abc',
        'x-xsrf-token': 'abd',
      },
      payload,
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: CSRF_FAILED });
  });

  test('an unsafe request with a header but no cookie is refused', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...(await authHeader(learner.sub)), 'x-xsrf-token': 'abc' },
      payload,
    });
    assert.equal(res.statusCode, 403);
  });

  test('the cookie a GET handed out works for the next PUT', async () => {
    const first = await t.app.inject({
      url: '/api/v1/user/whoami',
      headers: await authHeader(learner.sub),
    });
    const token = first.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
    assert.ok(token);
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: {
        ...(await authHeader(learner.sub)),
        cookie: `XSRF-TOKEN=${token}`,
        'x-xsrf-token': token,
      },
      payload,
    });
    assert.equal(res.statusCode, 200);
  });
});
