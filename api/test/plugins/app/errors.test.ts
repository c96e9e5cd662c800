import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { INTERNAL_ERROR, NOT_FOUND } from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../helper';

describe('error answers', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
    t.app.get('/test/boom', { config: { public: true } }, async () => {
      throw new Error('connection string postgres://secret@db');
    });
    t.app.post(
      '/test/form',
      {
        config: { public: true },
        schema: {
          body: Type.Object({
            code: Type.String({ maxLength: 8, pattern: '^[a-z]+$', 'x-patternMessage': 'Letters only.' }),
            plain: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
            count: Type.Integer({ minimum: 1 }),
            kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
            nested: Type.Object({ name: Type.String({ minLength: 1 }) }),
            required: Type.String(),
          }),
        },
      },
      async () => ({ ok: true }),
    );
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

  test('a 400 names every invalid field at once, each with its reason', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/form',
      headers: xsrfHeaders(),
      payload: { code: 'ABC', plain: 'x', count: 0, kind: 'c', nested: { name: '' } },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      code: ['Letters only.'],
      // No x-patternMessage: ajv's own words.
      plain: ['must match pattern "^[0-9]+$"'],
      count: ['must be >= 1'],
      kind: ['must be one of: "a", "b"'],
      'nested.name': ['must NOT have fewer than 1 characters'],
      required: ['This field is required.'],
    });
  });

  test('a value over its maxLength and off its pattern gets both reasons', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/form',
      headers: xsrfHeaders(),
      payload: { code: 'ABCDEFGHIJ', count: 1, kind: 'a', nested: { name: 'n' }, required: 'r' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      code: ['must NOT have more than 8 characters', 'Letters only.'],
    });
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
