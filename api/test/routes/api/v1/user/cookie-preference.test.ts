import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CSRF_FAILED, NOT_FOUND } from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';

describe('/api/v1/user/:id/cookie-preference', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const educator = account('educator');
  const sysadmin = account('sys admin');
  const url = (id: string) => `/api/v1/user/${id}/cookie-preference`;

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('a user who never chose reads allowEssentialCookies false', async () => {
    const res = await t.app.inject({
      url: url(learner.sub),
      headers: await authHeader(learner.sub),
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { allowEssentialCookies: false });
  });

  test('a user saves their choice and reads it back', async () => {
    const headers = { ...(await authHeader(learner.sub)), ...xsrfHeaders() };
    const put = await t.app.inject({
      method: 'PUT',
      url: url(learner.sub),
      headers,
      payload: { allowEssentialCookies: true },
    });
    assert.equal(put.statusCode, 200);
    assert.deepEqual(put.json(), { allowEssentialCookies: true });
    const get = await t.app.inject({
      url: url(learner.sub),
      headers: await authHeader(learner.sub),
    });
    assert.deepEqual(get.json(), { allowEssentialCookies: true });
  });

  test("another user's preference answers 404, for reading and writing", async () => {
    const get = await t.app.inject({
      url: url(learner.sub),
      headers: await authHeader(educator.sub),
    });
    assert.equal(get.statusCode, 404);
    assert.deepEqual(get.json(), { detail: NOT_FOUND });
    const put = await t.app.inject({
      method: 'PUT',
      url: url(learner.sub),
      headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
      payload: { allowEssentialCookies: false },
    });
    assert.equal(put.statusCode, 404);
  });

  test('a sys admin also reaches only their own', async () => {
    const res = await t.app.inject({
      url: url(learner.sub),
      headers: await authHeader(sysadmin.sub),
    });
    assert.equal(res.statusCode, 404);
  });

  test('a value that is not a boolean answers 400 and changes nothing', async () => {
    const headers = { ...(await authHeader(educator.sub)), ...xsrfHeaders() };
    const res = await t.app.inject({
      method: 'PUT',
      url: url(educator.sub),
      headers,
      payload: { allowEssentialCookies: 'yes' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { allowEssentialCookies: ['must be boolean'] });
    const get = await t.app.inject({
      url: url(educator.sub),
      headers: await authHeader(educator.sub),
    });
    assert.deepEqual(get.json(), { allowEssentialCookies: false });
  });

  test('a PUT without the XSRF header is refused and changes nothing', async () => {
    const auth = await authHeader(educator.sub);
    const res = await t.app.inject({
      method: 'PUT',
      url: url(educator.sub),
      headers: { ...auth, cookie: 'XSRF-TOKEN=abc' },
      payload: { allowEssentialCookies: true },
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: CSRF_FAILED });
    const get = await t.app.inject({ url: url(educator.sub), headers: auth });
    assert.deepEqual(get.json(), { allowEssentialCookies: false });
  });
});
