import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CloseSessionResult, SessionStatus } from '@portal/contract';
import { authHeader, buildTestApp, type TestApp } from '../../../../helper';
import {
  createSession,
  educator,
  leafId,
  learner,
  otherLearner,
  productId,
  rowCounts,
  sysadmin,
  userHeaders,
} from '../simulator/session-fixtures';

describe('POST /api/v1/product/:productId/session', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const create = async (product: number | string, payload: unknown, sub = learner.sub) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${product}/session`,
      headers: await userHeaders(sub),
      payload: payload as object,
    });

  test('creates a not-started session and answers its token once; only the hash is stored', async () => {
    const radiography = await productId(t.db, 'radiography');
    const res = await create(radiography, {
      configuration: 'radiography.lower-limb.knee',
      mode: 'VR',
      // A launch id must name a real, recent launch of the caller's: test/routes/lti covers it.
      ltiLaunchId: null,
    });
    assert.equal(res.statusCode, 201, res.body);
    const { token, uuid } = res.json<{ token: string; uuid: string }>();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.match(uuid, /^[0-9a-f-]{36}$/);
    const row = await t.db.query<Record<string, unknown>>(
      'select * from simulation_sessions where uuid = $1',
      [uuid],
    );
    assert.deepEqual(
      {
        user: row.rows[0]?.user_id,
        product: row.rows[0]?.product_id,
        category: row.rows[0]?.category_id,
        mode: row.rows[0]?.mode,
        status: row.rows[0]?.status,
        lti: row.rows[0]?.lti_launch_id,
        hash: row.rows[0]?.token_hash,
      },
      {
        user: learner.sub,
        product: radiography,
        // The configuration has one leaf, which names the report.
        category: await leafId(t.db, 'radiography.lower-limb.knee'),
        mode: 'VR',
        status: 'not_started',
        lti: null,
        hash: createHash('sha256').update(token).digest('hex'),
      },
    );
    const leaked = await t.db.query(
      "select 1 from simulation_sessions where row_to_json(simulation_sessions)::text like '%' || $1 || '%'",
      [token],
    );
    assert.equal(leaked.rowCount, 0, 'the token itself is stored nowhere');
  });

  test('accepts the launched leaf as categoryId', async () => {
    const knee = await leafId(t.db, 'radiography.lower-limb.knee');
    const res = await create(await productId(t.db, 'radiography'), {
      configuration: 'radiography.lower-limb.knee',
      mode: 'Desktop',
      categoryId: knee,
      ltiLaunchId: null,
    });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('every session gets its own token and uuid', async () => {
    const a = await createSession(t);
    const b = await createSession(t);
    assert.notEqual(a.token, b.token);
    assert.notEqual(a.uuid, b.uuid);
  });

  test('a global administrator may launch any product in any mode', async () => {
    const res = await create(
      await productId(t.db, 'radiation-safety'),
      { configuration: 'radiation-safety.heart.coronary-angiography', mode: 'VR' },
      sysadmin.sub,
    );
    assert.equal(res.statusCode, 201, res.body);
  });

  describe('refusals write nothing', () => {
    let counts: Awaited<ReturnType<typeof rowCounts>>;
    beforeEach(async () => {
      await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
      counts = await rowCounts(t.db);
    });
    const assertNothingWritten = async () => assert.deepEqual(await rowCounts(t.db), counts);

    test("a product the user's organisation is not licensed for is not found", async () => {
      const res = await create(
        await productId(t.db, 'radiation-safety'),
        { configuration: 'radiation-safety.head.ct-head', mode: 'Desktop' },
        otherLearner.sub,
      );
      assert.equal(res.statusCode, 404);
      await assertNothingWritten();
    });

    test('a product that does not exist is not found', async () => {
      const res = await create(9999, { configuration: 'x', mode: 'VR' }, sysadmin.sub);
      assert.equal(res.statusCode, 404);
      await assertNothingWritten();
    });

    test('a mode only an expired licence granted is refused on mode', async () => {
      const res = await create(await productId(t.db, 'radiation-safety'), {
        configuration: 'radiation-safety.head.ct-head',
        mode: 'VR',
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.json()), ['mode']);
      await assertNothingWritten();
    });

    test('a configuration of another product, or of no leaf, is refused on configuration', async () => {
      const radiography = await productId(t.db, 'radiography');
      for (const configuration of ['birthing.kneeling', 'radiography.lower-limb', 'nonsense']) {
        const res = await create(radiography, { configuration, mode: 'Desktop' });
        assert.equal(res.statusCode, 400, configuration);
        assert.deepEqual(Object.keys(res.json()), ['configuration'], configuration);
      }
      await assertNothingWritten();
    });

    test('a categoryId that is not the leaf of the configuration is refused on categoryId', async () => {
      const res = await create(await productId(t.db, 'radiography'), {
        configuration: 'radiography.lower-limb.knee',
        mode: 'Desktop',
        categoryId: await leafId(t.db, 'radiography.lower-limb.foot'),
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.json()), ['categoryId']);
      await assertNothingWritten();
    });

    test('mode and configuration errors are reported together', async () => {
      const res = await create(
        await productId(t.db, 'radiography'),
        { configuration: 'birthing.kneeling', mode: 'VR' },
        otherLearner.sub,
      );
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.json()).sort(), ['configuration', 'mode']);
      await assertNothingWritten();
    });

    test('missing fields, wrong types and oversize strings are field errors', async () => {
      const radiography = await productId(t.db, 'radiography');
      const cases: Array<[unknown, string[]]> = [
        [{}, ['configuration', 'mode']],
        [{ configuration: 5, mode: 'Desktop' }, ['configuration']],
        [{ configuration: '', mode: 'Desktop' }, ['configuration']],
        [{ configuration: 'x'.repeat(256), mode: 'Desktop' }, ['configuration']],
        [{ configuration: 'radiography.lower-limb.knee', mode: 'Phone' }, ['mode']],
        [
          {
            configuration: 'radiography.lower-limb.knee',
            mode: 'VR',
            ltiLaunchId: 'l'.repeat(256),
          },
          ['ltiLaunchId'],
        ],
        [
          { configuration: 'radiography.lower-limb.knee', mode: 'VR', categoryId: 'knee' },
          ['categoryId'],
        ],
      ];
      for (const [payload, fields] of cases) {
        const res = await create(radiography, payload);
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(Object.keys(res.json()).sort(), fields, JSON.stringify(payload));
      }
      await assertNothingWritten();
    });

    test('a body that is not JSON is refused', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
        headers: { ...(await userHeaders(learner.sub)), 'content-type': 'application/json' },
        payload: '{nope',
      });
      assert.equal(res.statusCode, 400);
      await assertNothingWritten();
    });

    test('without the XSRF header the call is refused', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
        headers: await authHeader(learner.sub),
        payload: { configuration: 'radiography.lower-limb.knee', mode: 'Desktop' },
      });
      assert.equal(res.statusCode, 403);
      await assertNothingWritten();
    });
  });
});

describe('learner-side session calls', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const call = async (
    method: 'GET' | 'POST',
    path: string,
    session: { productId: number; uuid: string },
    sub = learner.sub,
  ) =>
    t.app.inject({
      method,
      url: `/api/v1/product/${session.productId}/session/${session.uuid}/${path}`,
      headers: method === 'GET' ? await authHeader(sub) : await userHeaders(sub),
    });

  test('the owner polls the status of their session', async () => {
    const session = await createSession(t);
    const res = await call('GET', 'status', session);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json<SessionStatus>(), { uuid: session.uuid, status: 'not_started' });
  });

  test('a polled status follows every change at once, although polls are answered from memory', async () => {
    const session = await createSession(t);
    const poll = async (sub = learner.sub) =>
      (await call('GET', 'status', session, sub)).json<SessionStatus>().status;
    assert.equal(await poll(), 'not_started');
    assert.equal(await poll(), 'not_started');
    // A remembered status of the owner is still "not found" for anyone else.
    assert.equal((await call('GET', 'status', session, educator.sub)).statusCode, 404);

    const simulator = { authorization: `Session ${session.token}` };
    const join = await t.app.inject({
      method: 'POST',
      url: '/api/v1/simulator/session/join',
      headers: simulator,
    });
    assert.equal(join.statusCode, 200);
    assert.equal(await poll(), 'in_progress');

    const done = await t.app.inject({
      method: 'POST',
      url: '/api/v1/simulator/session/complete',
      headers: simulator,
      payload: {},
    });
    assert.equal(done.statusCode, 200);
    assert.equal(await poll(), 'complete');

    assert.equal((await call('POST', 'close', session)).statusCode, 200);
    assert.equal(await poll(), 'closed');
  });

  test("another user's session, or the session under another product, is not found", async () => {
    const session = await createSession(t);
    for (const path of ['status', 'complete', 'close'] as const) {
      const method = path === 'status' ? 'GET' : 'POST';
      assert.equal((await call(method, path, session, educator.sub)).statusCode, 404, path);
      assert.equal((await call(method, path, session, sysadmin.sub)).statusCode, 404, path);
      const elsewhere = { ...session, productId: await productId(t.db, 'birthing') };
      assert.equal((await call(method, path, elsewhere)).statusCode, 404, path);
    }
    const row = await t.db.query('select status from simulation_sessions where uuid = $1', [
      session.uuid,
    ]);
    assert.deepEqual(row.rows, [{ status: 'not_started' }]);
  });

  test('a session id that is not a uuid is a field error', async () => {
    const res = await call('GET', 'status', {
      productId: await productId(t.db, 'radiography'),
      uuid: 'abc',
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(Object.keys(res.json()), ['uuid']);
  });

  test('the owner completes a session once; completing it again is a conflict', async () => {
    const session = await createSession(t);
    const res = await call('POST', 'complete', session);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { uuid: session.uuid, status: 'complete' });
    const row = await t.db.query<{ completed_at: Date | null; report_details: unknown }>(
      'select completed_at, report_details from simulation_sessions where uuid = $1',
      [session.uuid],
    );
    assert.ok(row.rows[0]?.completed_at);
    assert.equal(row.rows[0]?.report_details, null);

    const again = await call('POST', 'complete', session);
    assert.equal(again.statusCode, 409);
    assert.equal(typeof again.json<{ detail: string }>().detail, 'string');
  });

  test('closing answers what the report page needs, and closing again answers the same', async () => {
    const session = await createSession(t);
    const res = await call('POST', 'close', session);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json<CloseSessionResult>(), {
      hasReportDetails: false,
      hasSubmittedEvidence: false,
      status: 'closed',
    });
    const first = await t.db.query<{ closed_at: Date }>(
      'select closed_at from simulation_sessions where uuid = $1',
      [session.uuid],
    );
    const again = await call('POST', 'close', session);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), res.json());
    const second = await t.db.query<{ closed_at: Date }>(
      'select closed_at from simulation_sessions where uuid = $1',
      [session.uuid],
    );
    assert.deepEqual(second.rows, first.rows, 'the first close time is kept');

    assert.deepEqual((await call('GET', 'status', session)).json(), {
      uuid: session.uuid,
      status: 'closed',
    });
    assert.equal((await call('POST', 'complete', session)).statusCode, 409);
  });

  test('session calls need access to simulations', async () => {
    const session = await createSession(t);
    const res = await t.app.inject({
      url: `/api/v1/product/${session.productId}/session/${session.uuid}/status`,
    });
    assert.equal(res.statusCode, 401);
  });
});
