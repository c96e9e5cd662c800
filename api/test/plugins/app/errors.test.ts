import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_ERROR, NOT_FOUND } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../helper';

describe('error answers', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
    t.app.get('/test/boom', { config: { public: true } }, async () => {
      throw new Error('connection string postgres://secret@db');
    });
  });
  after(() => t.close());

  test('an unknown route answers 404 Not found, with or without a token', async () => {
    const anonymous = await t.app.inject({ url: '/api/v1/nothing-here' });
    assert.equal(anonymous.statusCode, 404);
    assert.deepEqual(anonymous.json(), { detail: NOT_FOUND });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/nothing-here',
      headers: await authHeader(account('learner').sub),
    });
    assert.equal(signedIn.statusCode, 404);
  });

  test('a failure answers 500 without internals', async () => {
    const res = await t.app.inject({ url: '/test/boom' });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { detail: INTERNAL_ERROR });
    assert.ok(!res.body.includes('secret'));
  });

  test('the health check answers ok after querying the database', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('the OpenAPI document is public and lists the routes', async () => {
    const res = await t.app.inject({ url: '/api/docs/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json<{ openapi: string; paths: Record<string, unknown> }>();
    assert.match(doc.openapi, /^3\./);
    assert.ok(doc.paths['/api/v1/user/whoami']);
    assert.ok(doc.paths['/api/v1/user/{id}/preference']);
    assert.ok(doc.paths['/api/v1/lookup']);
  });
});
