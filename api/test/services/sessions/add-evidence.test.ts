import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runWithRequestId } from '@portal/service-kit';
import {
  createEvidenceRepository,
  type EvidenceLimits,
  type NewEvidence,
} from '../../../src/repositories/evidence-repository';
import { markingItem } from '../../../src/services/sessions/mark-evidence';
import { buildTestApp, type TestApp } from '../../helper';
import {
  createSession,
  join,
  KNEE_90,
  learner,
  lessonEvidence,
} from '../../routes/api/v1/simulator/session-fixtures';

/**
 * Issue #24 point 5: an upload's checks and writes are one statement (migration 0043's
 * `add_evidence`) instead of a nine-statement transaction. Every outcome, the locks' checks that
 * the route's cheap pre-checks cannot make, and that nothing is written unless all of it is.
 */
describe('evidence added in one statement', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ outboxPollMs: 0 });
  });
  after(() => t.close());

  const roomy: EvidenceLimits = { maxPerSession: 200, maxStoredBytes: 1024 ** 3 };

  const joined = async () => {
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    return session;
  };

  const image = (sessionUuid: string, size = 1000): NonNullable<NewEvidence['image']> => {
    const id = randomUUID();
    return {
      id,
      originalName: 'knee.png',
      mimeType: 'image/png',
      size,
      storageKey: `evidence/${sessionUuid}/${id}.png`,
    };
  };

  const add = (
    sessionUuid: string,
    submission: NewEvidence['submission'],
    file: NewEvidence['image'],
    limits = roomy,
  ) =>
    createEvidenceRepository(t.db).add(
      { sessionUuid, userId: learner.sub, submission, image: file },
      limits,
      markingItem(sessionUuid),
    );

  /** Rows the statement writes to, to prove a refusal wrote none. */
  const counts = async () =>
    (
      await t.db.query<{ evidence: number; files: number; outbox: number }>(
        `select (select count(*)::int from evidence) as evidence,
                (select count(*)::int from files) as files,
                (select count(*)::int from outbox) as outbox`,
      )
    ).rows[0];

  test('an X-ray image: file and evidence written, its marking queued with the request id, the score cleared', async () => {
    const session = await joined();
    await t.db.query('update simulation_sessions set score = 70 where uuid = $1', [session.uuid]);
    const file = image(session.uuid);
    const result = await runWithRequestId('upload-7', () => add(session.uuid, KNEE_90, file));
    assert.ok(result.ok);
    assert.equal(result.markingPending, true);

    const row = await t.db.query(
      `select e.position, e.practice_activity, e.marking_pending, f.id as file_id, f.kind, f.size::int as size,
              f.storage_key, f.state, f.owner_id
         from evidence e join files f on f.id = e.image_file_id where e.id = $1`,
      [result.id],
    );
    assert.deepEqual(row.rows, [
      {
        position: 0,
        practice_activity: KNEE_90.practiceActivity,
        marking_pending: true,
        file_id: file.id,
        kind: 'evidence-image',
        size: 1000,
        storage_key: file.storageKey,
        state: 'saved',
        owner_id: learner.sub,
      },
    ]);
    const items = await t.db.query(`select kind, key, payload from outbox where key = $1`, [
      `mark-evidence:${session.uuid}`,
    ]);
    assert.deepEqual(items.rows, [
      {
        kind: 'mark-evidence',
        key: `mark-evidence:${session.uuid}`,
        payload: { sessionUuid: session.uuid, evidenceId: result.id, requestId: 'upload-7' },
      },
    ]);
    const score = await t.db.query('select score from simulation_sessions where uuid = $1', [
      session.uuid,
    ]);
    assert.deepEqual(score.rows, [{ score: null }], 'no score while an image waits');

    const second = await add(session.uuid, KNEE_90, image(session.uuid));
    assert.ok(second.ok);
    const positions = await t.db.query(
      'select position from evidence where session_uuid = $1 order by position',
      [session.uuid],
    );
    assert.deepEqual(positions.rows, [{ position: 0 }, { position: 1 }]);
  });

  test('a lesson part without an image: evidence only, nothing queued', async () => {
    const session = await createSession(t, {
      product: 'radiation-safety',
      configuration: 'radiation-safety.lesson.distance-and-time',
    });
    assert.equal((await join(t, session.token)).statusCode, 200);
    const before = await counts();
    const result = await add(session.uuid, lessonEvidence(), null);
    assert.deepEqual(result, { ok: true, id: result.ok ? result.id : -1, markingPending: false });
    assert.deepEqual(await counts(), { ...before!, evidence: before!.evidence + 1 });
  });

  test('refusals write nothing: not joined, unknown session, the limit and the quota under the locks', async () => {
    const notJoined = await createSession(t);
    const open = await joined();
    const before = await counts();

    assert.deepEqual(await add(notJoined.uuid, KNEE_90, image(notJoined.uuid)), {
      ok: false,
      reason: 'not_in_progress',
      status: 'not_started',
    });
    assert.deepEqual(await add(randomUUID(), KNEE_90, null), {
      ok: false,
      reason: 'not_in_progress',
      status: null,
    });
    // Reached between the route's cheap checks and the statement: only the locked count sees it.
    assert.deepEqual(
      await add(open.uuid, KNEE_90, image(open.uuid), { ...roomy, maxPerSession: 0 }),
      { ok: false, reason: 'limit' },
    );
    const stored = await t.db.query<{ bytes: number }>(
      `select coalesce(sum(size), 0)::int as bytes from files
        where owner_id = $1 and kind <> 'sim-installation-file'`,
      [learner.sub],
    );
    const quota = stored.rows[0]!.bytes + 1000;
    assert.deepEqual(
      await add(open.uuid, KNEE_90, image(open.uuid, 1001), { ...roomy, maxStoredBytes: quota }),
      { ok: false, reason: 'storage_quota' },
    );
    assert.deepEqual(await counts(), before);

    // Exactly at the quota goes in; an image-less evidence is not held by the quota.
    const atQuota = await add(open.uuid, KNEE_90, image(open.uuid, 1000), {
      ...roomy,
      maxStoredBytes: quota,
    });
    assert.equal(atQuota.ok, true);
    const lesson = await add(open.uuid, lessonEvidence(), null, { ...roomy, maxStoredBytes: 0 });
    assert.equal(lesson.ok, true);
  });

  test('a failed write leaves nothing behind: a file id already taken rolls the statement back', async () => {
    const session = await joined();
    const first = image(session.uuid);
    assert.equal((await add(session.uuid, KNEE_90, first)).ok, true);
    const before = await counts();
    await assert.rejects(add(session.uuid, KNEE_90, { ...image(session.uuid), id: first.id }));
    assert.deepEqual(await counts(), before);
  });
});
