import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';

const SKIN_TONE_MEDIUM = 18002;

describe('/api/v1/user/:id/preference', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const other = account('learner', 'Other College');
  const url = `/api/v1/user/${learner.sub}/preference`;

  const read = async () =>
    (await t.app.inject({ url, headers: await authHeader(learner.sub) })).json();
  const put = async (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PUT',
      url,
      headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders(), ...headers },
      payload: payload as Record<string, unknown>,
    });

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(async () => {
    await t.db.query('update users set language = $2, skin_tone_id = null where id = $1', [
      learner.sub,
      'en',
    ]);
  });

  test('a user reads their preference', async () => {
    const res = await t.app.inject({ url, headers: await authHeader(learner.sub) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { language: 'en', skinTone: null });
  });

  test('a user saves language and skin tone and gets the saved value back', async () => {
    const res = await put({ language: 'de', skinTone: SKIN_TONE_MEDIUM });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { language: 'de', skinTone: SKIN_TONE_MEDIUM });
    assert.deepEqual(await read(), { language: 'de', skinTone: SKIN_TONE_MEDIUM });
    // whoami reflects the new language, so the front end switches to it.
    const whoami = await t.app.inject({
      url: '/api/v1/user/whoami',
      headers: await authHeader(learner.sub),
    });
    assert.equal(whoami.json<{ language: string }>().language, 'de');
  });

  test('skin tone can be cleared with null', async () => {
    await put({ language: 'en', skinTone: SKIN_TONE_MEDIUM });
    const res = await put({ language: 'en', skinTone: null });
    assert.deepEqual(res.json(), { language: 'en', skinTone: null });
  });

  const badInputs: Array<[string, unknown, Record<string, string[]>]> = [
    ['a missing field', { language: 'de' }, { skinTone: ['This field is required.'] }],
    [
      'a wrong type',
      { language: 'de', skinTone: 'dark' },
      { skinTone: ['must be integer or null'] },
    ],
    [
      'a number for the language',
      { language: 12, skinTone: null },
      { language: ['must be string'] },
    ],
    [
      'an oversize string',
      { language: 'a-very-long-language', skinTone: null },
      { language: ['must NOT have more than 10 characters'] },
    ],
    [
      'an unknown language code',
      { language: 'xx', skinTone: null },
      { language: ['"xx" is not a valid choice.'] },
    ],
    [
      'an unknown skin tone',
      { language: 'de', skinTone: 99999 },
      { skinTone: ['Invalid pk "99999" - object does not exist.'] },
    ],
    [
      'a lookup id of another field as skin tone',
      { language: 'de', skinTone: 22001 },
      { skinTone: ['Invalid pk "22001" - object does not exist.'] },
    ],
    [
      'several bad fields at once',
      { language: 'a-very-long-language' },
      {
        language: ['must NOT have more than 10 characters'],
        skinTone: ['This field is required.'],
      },
    ],
  ];
  for (const [what, payload, errors] of badInputs) {
    test(`${what} answers 400 with field errors and writes nothing`, async () => {
      const res = await put(payload);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), errors);
      assert.deepEqual(await read(), { language: 'en', skinTone: null });
    });
  }

  test('a body that is not JSON answers 400 with a non-field error', async () => {
    const res = await put('{"language": ', { 'content-type': 'application/json' });
    assert.equal(res.statusCode, 400);
    const body = res.json<Record<string, string[]>>();
    assert.deepEqual(Object.keys(body), ['non_field_errors']);
    assert.equal(body.non_field_errors?.length, 1);
    assert.deepEqual(await read(), { language: 'en', skinTone: null });
  });

  test("another user's preference answers 404 for reading and writing", async () => {
    const get = await t.app.inject({ url, headers: await authHeader(other.sub) });
    assert.equal(get.statusCode, 404);
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...(await authHeader(other.sub)), ...xsrfHeaders() },
      payload: { language: 'de', skinTone: null },
    });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(await read(), { language: 'en', skinTone: null });
  });

  test('an id that is not a UUID answers 400 on the id', async () => {
    const res = await t.app.inject({
      url: '/api/v1/user/42/preference',
      headers: await authHeader(learner.sub),
    });
    assert.equal(res.statusCode, 400);
    assert.ok(res.json<Record<string, unknown>>().id);
  });
});
