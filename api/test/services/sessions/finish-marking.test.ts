import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markImage } from '../../../src/marking/mark-image';
import { finalSessionScore } from '../../../src/marking/session-score';
import {
  createMarkingRepository,
  type MarkingSnapshot,
} from '../../../src/repositories/marking-repository';
import { createOutboxRegistry } from '../../../src/outbox/handler-registry';
import { createOutboxWorker } from '../../../src/outbox/outbox-worker';
import {
  MARK_EVIDENCE_KIND,
  markEvidenceKinds,
} from '../../../src/services/sessions/mark-evidence';
import { buildTestApp, type TestApp } from '../../helper';
import {
  complete,
  createSession,
  join,
  KNEE_90,
  markedKnee,
  submitImages,
} from '../../routes/api/v1/simulator/session-fixtures';

/** Marked 80 % (a dose far above the reference level), another projection than KNEE_90's. */
const LATERAL_80 = markedKnee({ dapMGyCm2: 500 }, 'Knee lateral (left)');

/**
 * Issue #24 point 5: the outbox worker marks an image in two statements, an unlocked read
 * (`markingSnapshot`) and migration 0045's `finish_marking`, instead of a six-statement
 * transaction. The function must write exactly what the transaction wrote when nothing changed
 * in between, and nothing at all ('fallback', and the worker marks in a transaction) when the
 * session's images changed since the read or the marking must queue a completion's grade.
 */
describe('a marking finished in one statement', () => {
  let t: TestApp;
  before(async () => {
    // No worker of its own: this file decides when images are marked.
    t = await buildTestApp({ outboxPollMs: 0 });
  });
  after(() => t.close());

  /** A joined session with these images uploaded and not marked; their ids and items. */
  async function unmarked(images = [KNEE_90, LATERAL_80]) {
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    const ids = await submitImages(t, session.token, images, { awaitMarking: false });
    const items = await t.db.query<{ id: number; evidence_id: number }>(
      `select id, (payload->>'evidenceId')::int as evidence_id from outbox
        where kind = $1 and payload->>'sessionUuid' = $2 order by id`,
      [MARK_EVIDENCE_KIND, session.uuid],
    );
    return { ...session, ids, items: items.rows };
  }

  const marking = () => createMarkingRepository(t.db);

  /** What the worker hands the function for `evidenceId`, from `seen`. */
  function finishing(
    uuid: string,
    evidenceId: number,
    itemId: number,
    seen: MarkingSnapshot,
  ): Parameters<ReturnType<typeof createMarkingRepository>['finishMarking']>[0] {
    assert.ok(seen.image && seen.scheme, 'an image waiting, with a scheme');
    const marks = markImage(seen.scheme, {
      evidenceData: seen.image.evidenceData,
      earlierAttempts: seen.image.earlierAttempts,
    });
    const after = seen.images.map((i) =>
      i.id === evidenceId ? { ...i, score: marks.score, pending: false } : i,
    );
    return {
      sessionUuid: uuid,
      evidenceId,
      marks,
      seen: seen.images,
      sessionScore: finalSessionScore(after),
      passMark: seen.scheme.passMark ?? null,
      itemId,
      note: null,
    };
  }

  const state = async (uuid: string) =>
    (
      await t.db.query<{
        images: Array<{ pending: boolean; score: string | number | null; marks: number }>;
        score: number | null;
        items_done: boolean[];
      }>(
        `select (select json_agg(json_build_object('pending', e.marking_pending, 'score', e.score,
                        'marks', (select count(*) from evidence_marks m where m.evidence_id = e.id))
                        order by e.position)
                   from evidence e where e.session_uuid = s.uuid) as images,
                s.score,
                (select array_agg(o.done_at is not null order by o.id) from outbox o
                  where o.kind = $2 and o.payload->>'sessionUuid' = s.uuid::text) as items_done
           from simulation_sessions s where s.uuid = $1`,
        [uuid, MARK_EVIDENCE_KIND],
      )
    ).rows[0]!;

  test('nothing changed since the read: marks, scores and the item written at once', async () => {
    const s = await unmarked();
    const first = await marking().markingSnapshot(s.uuid, s.ids[0]!);
    assert.ok(first);
    assert.deepEqual(
      first.images.map((i) => [i.id, i.pending, i.score]),
      s.ids.map((id) => [id, true, null]),
    );
    assert.equal(
      await marking().finishMarking(finishing(s.uuid, s.ids[0]!, s.items[0]!.id, first)),
      'marked',
    );
    let now = await state(s.uuid);
    assert.deepEqual(
      now.images.map((i) => [i.pending, i.score === null ? null : Number(i.score), i.marks > 0]),
      [
        [false, 90, true],
        [true, null, false],
      ],
    );
    assert.equal(now.score, null, 'no score while an image waits');
    assert.deepEqual(now.items_done, [true, false]);

    const second = await marking().markingSnapshot(s.uuid, s.ids[1]!);
    assert.ok(second);
    assert.equal(
      await marking().finishMarking(finishing(s.uuid, s.ids[1]!, s.items[1]!.id, second)),
      'marked',
    );
    now = await state(s.uuid);
    assert.deepEqual(
      now.images.map((i) => [i.pending, Number(i.score)]),
      [
        [false, 90],
        [false, 80],
      ],
    );
    assert.equal(now.score, 85, 'the mean of the two projections');
    assert.deepEqual(now.items_done, [true, true]);
  });

  test('an image uploaded after the read: nothing written, the worker falls back', async () => {
    const s = await unmarked([KNEE_90]);
    const seen = await marking().markingSnapshot(s.uuid, s.ids[0]!);
    assert.ok(seen);
    const before = await state(s.uuid);
    await submitImages(t, s.token, [LATERAL_80], { awaitMarking: false });
    assert.equal(
      await marking().finishMarking(finishing(s.uuid, s.ids[0]!, s.items[0]!.id, seen)),
      'fallback',
    );
    const now = await state(s.uuid);
    assert.deepEqual(now.images.slice(0, 1), before.images, 'the image still waits, unmarked');
    assert.equal(now.items_done[0], false, 'its item is not done');
  });

  test("another image's score changed after the read (an override): nothing written", async () => {
    const s = await unmarked();
    await t.db.query('update evidence set score = 50, marking_pending = false where id = $1', [
      s.ids[0],
    ]);
    const seen = await marking().markingSnapshot(s.uuid, s.ids[1]!);
    assert.ok(seen);
    await t.db.query('update evidence set score = 70 where id = $1', [s.ids[0]]);
    assert.equal(
      await marking().finishMarking(finishing(s.uuid, s.ids[1]!, s.items[1]!.id, seen)),
      'fallback',
    );
    const now = await state(s.uuid);
    assert.deepEqual(
      now.images.map((i) => [i.pending, i.marks]),
      [
        [false, 0],
        [true, 0],
      ],
    );
    assert.equal(now.score, null);
  });

  test('the same image marked by another worker after the read: nothing written twice', async () => {
    const s = await unmarked([KNEE_90]);
    const seen = await marking().markingSnapshot(s.uuid, s.ids[0]!);
    assert.ok(seen);
    const args = finishing(s.uuid, s.ids[0]!, s.items[0]!.id, seen);
    assert.equal(await marking().finishMarking(args), 'marked');
    assert.equal(await marking().finishMarking(args), 'fallback');
    const marks = await t.db.query<{ n: number }>(
      'select count(*)::int as n from evidence_marks where evidence_id = $1',
      [s.ids[0]],
    );
    const once = (await state(s.uuid)).images[0]!.marks;
    assert.equal(marks.rows[0]!.n, once, 'the criteria once');
  });

  test('the last image of a completion that waits for marking: left to the transaction', async () => {
    const s = await unmarked([KNEE_90]);
    await t.db.query('update simulation_sessions set grade_awaits_marking = true where uuid = $1', [
      s.uuid,
    ]);
    const seen = await marking().markingSnapshot(s.uuid, s.ids[0]!);
    assert.ok(seen?.awaitsGrade);
    assert.equal(
      await marking().finishMarking(finishing(s.uuid, s.ids[0]!, s.items[0]!.id, seen)),
      'fallback',
    );
    assert.deepEqual((await state(s.uuid)).images[0]!.pending, true);
  });

  test('a completion that waits, with another image still waiting: this one is marked at once', async () => {
    const s = await unmarked();
    await t.db.query('update simulation_sessions set grade_awaits_marking = true where uuid = $1', [
      s.uuid,
    ]);
    const seen = await marking().markingSnapshot(s.uuid, s.ids[0]!);
    assert.ok(seen);
    assert.equal(
      await marking().finishMarking(finishing(s.uuid, s.ids[0]!, s.items[0]!.id, seen)),
      'marked',
    );
    const flag = await t.db.query<{ awaits: boolean }>(
      'select grade_awaits_marking as awaits from simulation_sessions where uuid = $1',
      [s.uuid],
    );
    assert.equal(flag.rows[0]!.awaits, true, 'the grade still waits for the last marking');
  });

  test('through the worker: a session completed while its images wait is scored once all are marked', async () => {
    const s = await unmarked();
    assert.equal(
      (await complete(t, s.token, { reportDetails: { summary: 'Knee' } })).statusCode,
      200,
    );
    const registry = createOutboxRegistry();
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    registry.register(markEvidenceKinds({ db: t.db, log, kick: () => undefined }));
    const worker = createOutboxWorker({ db: t.db, registry, log, batchSize: 1, concurrency: 1 });
    // Earlier tests' items are due too; none may fail.
    assert.equal((await worker.drain()).failed, 0);
    const now = await state(s.uuid);
    assert.deepEqual(
      now.images.map((i) => [i.pending, Number(i.score)]),
      [
        [false, 90],
        [false, 80],
      ],
    );
    assert.equal(now.score, 85);
    assert.deepEqual(now.items_done, [true, true]);
  });
});
