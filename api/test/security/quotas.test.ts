import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, type Config } from '../../src/config';
import { tooManyOpenSessions } from '../../src/routes/api/v1/product/session';
import { storageQuotaReached } from '../../src/routes/api/v1/simulator/index';
import { buildTestApp, type TestApp } from '../helper';
import {
  createSession,
  dataPart,
  educator,
  imagePart,
  join,
  learner,
  lessonEvidence,
  PNG,
  productId,
  rowCounts,
  submitEvidence,
  userHeaders,
  xrayEvidence,
} from '../routes/api/v1/simulator/session-fixtures';

describe('per-user quotas', () => {
  const apps: TestApp[] = [];
  const app = async (overrides: Partial<Config>) => {
    const t = await buildTestApp(overrides);
    apps.push(t);
    return t;
  };
  after(async () => {
    for (const t of apps) await t.close();
  });

  const create = async (t: TestApp, sub = learner.sub) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
      headers: await userHeaders(sub),
      payload: { configuration: 'radiography.lower-limb.knee', mode: 'Desktop' },
    });

  describe('open sessions', () => {
    const DEFAULT_MAX = loadConfig({}).maxOpenSessionsPerUser;
    let t: TestApp;
    before(async () => {
      t = await app({ maxOpenSessionsPerUser: DEFAULT_MAX });
    });

    test(`a ${DEFAULT_MAX + 1}th open session is refused with a clear detail and writes nothing`, async () => {
      assert.equal(DEFAULT_MAX, 5);
      const open = [];
      for (let i = 0; i < DEFAULT_MAX; i += 1) open.push(await createSession(t));
      await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
      const counts = await rowCounts(t.db);
      const res = await create(t);
      assert.equal(res.statusCode, 409, res.body);
      assert.deepEqual(res.json(), { detail: tooManyOpenSessions(5) });
      assert.equal(
        res.json<{ detail: string }>().detail,
        'You already have 5 simulation sessions open. Finish one, or try again later.',
      );
      assert.deepEqual(await rowCounts(t.db), counts);

      // Another learner is not affected.
      assert.equal((await create(t, educator.sub)).statusCode, 201);

      // Closed, completed and expired sessions are not open.
      const [a, b, c] = open;
      assert.ok(a && b && c);
      const close = await t.app.inject({
        method: 'POST',
        url: `/api/v1/product/${a.productId}/session/${a.uuid}/close`,
        headers: await userHeaders(learner.sub),
      });
      assert.equal(close.statusCode, 200);
      assert.equal((await create(t)).statusCode, 201);
      assert.equal((await create(t)).statusCode, 409);

      assert.equal((await join(t, b.token)).statusCode, 200);
      const done = await t.app.inject({
        method: 'POST',
        url: '/api/v1/simulator/session/complete',
        headers: { authorization: `Session ${b.token}` },
        payload: {},
      });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal((await create(t)).statusCode, 201);
      assert.equal((await create(t)).statusCode, 409);

      await t.db.query(
        "update simulation_sessions set created_at = now() - interval '25 hours' where uuid = $1",
        [c.uuid],
      );
      assert.equal((await create(t)).statusCode, 201);
      assert.equal((await create(t)).statusCode, 409);
    });

    test('at the quota, launches the simulator never joined for 10 minutes are closed to make room', async () => {
      const t3 = await app({ maxOpenSessionsPerUser: 2 });
      const [joined, abandoned] = [await createSession(t3), await createSession(t3)];
      assert.ok(joined && abandoned);
      assert.equal((await join(t3, joined.token)).statusCode, 200);
      assert.equal((await create(t3)).statusCode, 409);

      // Both are old now; only the one never joined counts as given up.
      await t3.db.query(
        "update simulation_sessions set created_at = now() - interval '11 minutes' where uuid = any($1)",
        [[joined.uuid, abandoned.uuid]],
      );
      assert.equal((await create(t3)).statusCode, 201);
      const statuses = await t3.db.query<{ uuid: string; status: string }>(
        'select uuid, status from simulation_sessions where uuid = any($1) order by status',
        [[joined.uuid, abandoned.uuid]],
      );
      assert.deepEqual(statuses.rows, [
        { uuid: abandoned.uuid, status: 'closed' },
        { uuid: joined.uuid, status: 'in_progress' },
      ]);
      // The running one still counts: the quota holds.
      assert.equal((await create(t3)).statusCode, 409);
    });

    test('concurrent launches cannot overshoot the quota', async () => {
      const t2 = await app({ maxOpenSessionsPerUser: 3 });
      const results = await Promise.all(Array.from({ length: 8 }, () => create(t2, educator.sub)));
      const codes = results.map((r) => r.statusCode).sort();
      assert.deepEqual(codes, [201, 201, 201, 409, 409, 409, 409, 409]);
      const rows = await t2.db.query<{ n: number }>(
        'select count(*)::int as n from simulation_sessions where user_id = $1',
        [educator.sub],
      );
      assert.deepEqual(rows.rows, [{ n: 3 }]);
    });
  });

  test('evidence per session is bounded by MAX_EVIDENCE_PER_SESSION', async () => {
    assert.equal(loadConfig({}).maxEvidencePerSession, 200);
    const t = await app({ maxEvidencePerSession: 2 });
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    for (const part of [0, 1]) {
      const res = await submitEvidence(t, session.token, [dataPart(lessonEvidence(part))]);
      assert.equal(res.statusCode, 201, res.body);
    }
    await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
    const counts = await rowCounts(t.db);
    const res = await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { non_field_errors: ['A session holds at most 2 evidence.'] });
    assert.deepEqual(await rowCounts(t.db), counts);
  });

  describe('stored bytes', () => {
    test('an image past the quota is 413 with the reason; images without bytes still go in', async () => {
      assert.equal(loadConfig({}).maxStoredBytesPerUser, 1024 ** 3);
      assert.equal(
        storageQuotaReached(1024 ** 3).startsWith(
          'Your stored files have reached your quota of 1 GB.',
        ),
        true,
      );
      const t = await app({ maxStoredBytesPerUser: PNG.length * 2 });
      const session = await createSession(t);
      assert.equal((await join(t, session.token)).statusCode, 200);
      for (let i = 0; i < 2; i += 1) {
        const res = await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]);
        assert.equal(res.statusCode, 201, res.body);
      }
      await t.app.outboxWorker.idle(); // earlier images marked after their answer settle first
      const counts = await rowCounts(t.db);
      const res = await submitEvidence(t, session.token, [dataPart(xrayEvidence()), imagePart()]);
      assert.equal(res.statusCode, 413, res.body);
      assert.deepEqual(res.json(), { image: [storageQuotaReached(PNG.length * 2)] });
      assert.deepEqual(await rowCounts(t.db), counts);

      // Another session of the same learner shares the quota; a lesson part has no file.
      const other = await createSession(t);
      assert.equal((await join(t, other.token)).statusCode, 200);
      const again = await submitEvidence(t, other.token, [dataPart(xrayEvidence()), imagePart()]);
      assert.equal(again.statusCode, 413);
      const lesson = await submitEvidence(t, other.token, [dataPart(lessonEvidence())]);
      assert.equal(lesson.statusCode, 201, lesson.body);

      // Another learner has their own quota.
      const theirs = await createSession(t, { sub: educator.sub });
      assert.equal((await join(t, theirs.token)).statusCode, 200);
      const ok = await submitEvidence(t, theirs.token, [dataPart(xrayEvidence()), imagePart()]);
      assert.equal(ok.statusCode, 201, ok.body);
    });

    test('concurrent uploads of one learner cannot overshoot the quota', async () => {
      const t = await app({ maxStoredBytesPerUser: PNG.length * 3 });
      const sessions = [await createSession(t), await createSession(t)];
      for (const s of sessions) assert.equal((await join(t, s.token)).statusCode, 200);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          submitEvidence(t, sessions[i % 2]!.token, [dataPart(xrayEvidence()), imagePart()]),
        ),
      );
      assert.deepEqual(
        results.map((r) => r.statusCode).sort(),
        [201, 201, 201, 413, 413, 413, 413, 413],
      );
      const stored = await t.db.query<{ bytes: number }>(
        'select sum(size)::int as bytes from files where owner_id = $1',
        [learner.sub],
      );
      assert.deepEqual(stored.rows, [{ bytes: PNG.length * 3 }]);
    });
  });
});
