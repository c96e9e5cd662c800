import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PERMISSION_DENIED } from '@portal/contract';
import { accessOf } from '../../../src/plugins/app/access';
import { account, authHeader, buildTestApp, type TestApp } from '../../helper';

describe('route permission declarations', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('every registered route declares public or its permissions', async () => {
    await t.app.ready();
    assert.ok(t.app.routeAccess.length >= 7, 'routes were collected');
    const undeclared = t.app.routeAccess
      .filter((r) => r.access === null)
      .map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(undeclared, []);
  });

  test('only the health check, the OpenAPI document, signed file URLs, the LTI tool, the Brightspace sign-in, the e-mail change link and the development outbox are public', () => {
    const open = t.app.routeAccess
      .filter((r) => r.access === 'public')
      .map((r) => r.url)
      .sort();
    assert.deepEqual(
      [...new Set(open)],
      [
        // The Brightspace sign-in's browser legs: open only with the state and cookie that the
        // signed-in user's own POST /api/v1/user/brightspace-auth handed out.
        '/api/brightspace-auth',
        '/api/brightspace-auth/callback',
        // The test app has MAIL_DEV_OUTBOX on; without it the route does not exist (next test).
        '/api/dev/outbox.json',
        '/api/docs/openapi.json',
        // The launch sign-in broker (issue #22 point 1): the identity provider and the browser of
        // a launch call it; the launch's binding cookie, the client secret and the codes decide.
        '/api/lti/broker/.well-known/openid-configuration',
        '/api/lti/broker/auth',
        '/api/lti/broker/certs',
        '/api/lti/broker/token',
        '/api/lti/broker/userinfo',
        // A learning platform and the browser it sends call these without a portal token.
        '/api/lti/deep-link/:launchId/return',
        // The host's frame-ancestors list of the registered platforms (issue #22 point 2).
        '/api/lti/frame-origins',
        '/api/lti/jwks',
        '/api/lti/launch',
        // New-window tickets: the frame key, the ticket and the launch's cookie are the proof.
        '/api/lti/launch-window/:launchId',
        '/api/lti/launch-window/:launchId/ticket',
        '/api/lti/launch-window/redeem',
        '/api/lti/launch/storage',
        '/api/lti/login',
        // Authorised by the single-use portal token in its URL (dynamic registration).
        '/api/lti/register',
        // The e-mail change link: the single-use token in the body is the credential.
        '/api/v1/email-change/confirm',
        '/api/v1/email-change/lookup',
        '/api/v1/storage/*',
        '/healthz',
        // Operations (issue #24): the metrics token is /metrics's credential (404 without one).
        '/metrics',
        '/readyz',
      ],
    );
  });

  test('the development outbox exists only with MAIL_DEV_OUTBOX', async () => {
    const production = await buildTestApp({
      mail: { from: 'portal@example.test', productName: 'Portal', smtpUrl: 'smtp://127.0.0.1:1' },
    });
    try {
      await production.app.ready();
      assert.ok(!production.app.routeAccess.some((r) => r.url.startsWith('/api/dev/')));
      const res = await production.app.inject({ method: 'GET', url: '/api/dev/outbox.json' });
      assert.equal(res.statusCode, 404);
    } finally {
      await production.close();
    }
  });

  test('a declaration must be non-empty, known and not contradictory', () => {
    assert.equal(accessOf(undefined), null);
    assert.equal(accessOf({}), null);
    assert.equal(accessOf({ permissions: [] }), null);
    assert.equal(accessOf({ permissions: ['global.fly'] }), null);
    assert.equal(accessOf({ public: true, permissions: ['global.view_org'] }), null);
    assert.deepEqual(accessOf({ permissions: ['global.view_org'] }), ['global.view_org']);
    assert.equal(accessOf({ permissions: 'authenticated' }), 'authenticated');
    assert.equal(accessOf({ public: true }), 'public');
  });
});

describe('permission enforcement', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
    t.app.get(
      '/test/org-view',
      { config: { permissions: ['global.view_org', 'global.create_org'] } },
      async () => ({
        ok: true,
      }),
    );
    t.app.get('/test/undeclared', async () => ({ ok: true }));
  });
  after(() => t.close());

  test('a user holding none of the permissions is refused with 403', async () => {
    const res = await t.app.inject({
      url: '/test/org-view',
      headers: await authHeader(account('learner').sub),
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: PERMISSION_DENIED });
  });

  test('holding any one of them is enough', async () => {
    const res = await t.app.inject({
      url: '/test/org-view',
      headers: await authHeader(account('org admin').sub),
    });
    assert.equal(res.statusCode, 200);
  });

  test('the enumeration catches a route without a declaration', () => {
    const found = t.app.routeAccess.find((r) => r.url === '/test/undeclared');
    assert.equal(found?.access, null);
  });

  test('a route without a declaration is closed to everyone, even a sys admin', async () => {
    const res = await t.app.inject({
      url: '/test/undeclared',
      headers: await authHeader(account('sys admin').sub),
    });
    assert.equal(res.statusCode, 403);
  });
});
