import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvidenceSubmission, Report } from '@portal/contract';
import { startLms, type RunningLms } from '@portal/lms';
import {
  createOutboundClient,
  outboundPolicyFor,
  type OutboundClient,
} from '../../src/lib/outbound-http';
import { LTI_SCORE_KIND, ltiScoreKinds } from '../../src/lti/grade-passback';
import { createToolKeys } from '../../src/lti/tool-keys';
import { createOutboxRegistry } from '../../src/outbox/handler-registry';
import { createOutboxWorker, type OutboxWorker } from '../../src/outbox/outbox-worker';
import {
  MARK_EVIDENCE_KIND,
  MARK_EVIDENCE_MAX_ATTEMPTS,
  markEvidenceKinds,
} from '../../src/services/sessions/mark-evidence';
import { buildTestApp, type TestApp } from '../helper';
import { freePort, registerStandIn, standInLaunch } from '../lti/lms-browser';
import {
  complete,
  createSession,
  join,
  KNEE_80,
  KNEE_90,
  learner,
  markedKnee,
  submitImages,
  userHeaders,
} from '../routes/api/v1/simulator/session-fixtures';

/**
 * Issue #24 point 5: images are marked by the outbox worker after the upload's answer, not in the
 * upload's transaction. The app runs without its own worker (OUTBOX_POLL_SECONDS=0), so this file
 * decides when the worker runs: between the upload and the marking, and between the completion
 * and the last marking, where issue #23's rules must still hold (no score from unmarked images,
 * the grade posted once, after marking, with every image's marks).
 */
describe('marking after the upload, by the outbox worker', () => {
  let t: TestApp;
  let lms: RunningLms;
  let outbound: OutboundClient;
  /** One item per round, so a test can stop between two markings. */
  let worker: OutboxWorker;
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

  before(async () => {
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    lms = await startLms({ portalUrl: apiUrl, testEndpoints: true });
    t = await buildTestApp({ portalUrl: apiUrl, outboxPollMs: 0 });
    await t.app.listen({ port, host: '127.0.0.1' });
    await registerStandIn(t.db, lms.url);
    outbound = createOutboundClient({ policy: outboundPolicyFor(apiUrl) });
    const registry = createOutboxRegistry();
    // What plugins/app/outbox-worker.ts registers for these items.
    registry.register(markEvidenceKinds({ db: t.db, log, kick: () => undefined }));
    registry.register(ltiScoreKinds({ db: t.db, toolKeys: createToolKeys(t.db), log, outbound }));
    worker = createOutboxWorker({ db: t.db, registry, log, batchSize: 1, concurrency: 1 });
  });
  after(async () => {
    await t.close();
    await outbound.close();
    await lms.close();
  });
  beforeEach(async () => {
    await t.db.query(
      `update organisations set grade_release = 'automatic' where name = 'Demo Hospital'`,
    );
    await t.db.query('update lti_courses set grade_release = null');
  });

  const one = async <T>(sql: string, params: unknown[] = []) =>
    (await t.db.query<T & Record<string, unknown>>(sql, params)).rows[0] as T;

  async function report(uuid: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/report/${uuid}`,
      headers: await userHeaders(learner.sub),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Report>();
  }

  const itemsOf = (uuid: string, kind: string) =>
    t.db
      .query<{
        id: number;
        key: string;
        evidence_id: number | null;
        done: boolean;
        last_error: string | null;
      }>(
        `select id, key, (payload->>'evidenceId')::int as evidence_id, done_at is not null as done,
                last_error
           from outbox where kind = $2 and payload->>'sessionUuid' = $1 order by id`,
        [uuid, kind],
      )
      .then((r) => r.rows);

  const gradePosts = (uuid: string) =>
    one<{ n: number }>(
      `select count(*)::int as n from audit_log
        where entity_type = 'lti_score' and action = 'post' and entity_id = $1`,
      [uuid],
    ).then((r) => r.n);

  /** The session's markings are due again, as a lease running out after the commit makes them. */
  const redo = (uuid: string) =>
    t.db.query(
      `update outbox set done_at = null, locked_until = null, next_attempt_at = now()
        where payload->>'sessionUuid' = $1 and kind = $2`,
      [uuid, MARK_EVIDENCE_KIND],
    );

  /** A session launched from the stand-in's course as its user 101, these images submitted. */
  async function launchedSession(images: readonly EvidenceSubmission[]) {
    const { token, uuid } = await createSession(t, {
      ltiLaunchId: await standInLaunch(lms.url, '101'),
    });
    assert.equal((await join(t, token)).statusCode, 200);
    const ids = await submitImages(t, token, images);
    return { token, uuid, ids };
  }

  const lineItem = () => lms.app.lms.store.lineItems().find((i) => i.resourceLinkId === 'link-1');
  const result = () => {
    const item = lineItem();
    return item ? lms.app.lms.store.scoresOf(item.id).find((s) => s.userId === '101') : undefined;
  };

  test('the upload answers with the image unmarked and its marking queued; the worker marks it and scores the session', async () => {
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    // The best of two attempts at one projection (90; the repeat 85) and another at 80: 85.
    const ids = await submitImages(t, session.token, [
      KNEE_90,
      markedKnee({ centringErrorMm: 15 }),
      markedKnee({ dapMGyCm2: 500 }, 'Knee lateral (left)'),
    ]);

    const stored = await t.db.query<{
      id: number;
      pending: boolean;
      score: string | null;
      marks: number;
    }>(
      `select e.id, e.marking_pending as pending, e.score,
              (select count(*)::int from evidence_marks m where m.evidence_id = e.id) as marks
         from evidence e where e.session_uuid = $1 order by e.position`,
      [session.uuid],
    );
    assert.deepEqual(
      stored.rows,
      ids.map((id) => ({ id, pending: true, score: null, marks: 0 })),
      'stored, not marked',
    );
    assert.deepEqual(
      (await itemsOf(session.uuid, MARK_EVIDENCE_KIND)).map(({ key, evidence_id, done }) => ({
        key,
        evidence_id,
        done,
      })),
      ids.map((id) => ({ key: `mark-evidence:${session.uuid}`, evidence_id: id, done: false })),
    );

    const done = await complete(t, session.token, {
      reportDetails: { summary: 'Knee', score: 100 },
    });
    assert.equal(done.statusCode, 200, done.body);
    const waiting = await report(session.uuid);
    assert.deepEqual(
      waiting.evidence.map((e) => [e.markingPending, e.marks]),
      [
        [true, null],
        [true, null],
        [true, null],
      ],
    );
    assert.equal(waiting.grade.score, null, 'no score from unmarked images');

    const round = await worker.drain();
    assert.deepEqual(round, { done: 3, failed: 0 });
    const marked = await report(session.uuid);
    assert.deepEqual(
      marked.evidence.map((e) => [e.markingPending, e.marks?.score]),
      [
        [false, 90],
        [false, 85],
        [false, 80],
      ],
    );
    const repeat = marked.evidence[1]!.marks!.criteria.find((c) => c.criterion === 'repeats');
    assert.deepEqual(repeat, {
      criterion: 'repeats',
      mark: 5,
      max: 10,
      reason: 'repeated',
      value: 1,
      limit: 0,
    });
    assert.equal(marked.grade.score, 85);
    assert.equal(marked.grade.passMark, 60);
    assert.ok((await itemsOf(session.uuid, MARK_EVIDENCE_KIND)).every((i) => i.done));

    // An item done again (its lease ran out after the commit) finds its image marked.
    await redo(session.uuid);
    assert.deepEqual(await worker.drain(), { done: 3, failed: 0 });
    const again = await report(session.uuid);
    assert.deepEqual(again.evidence, marked.evidence);
    assert.equal(again.grade.score, 85);
  });

  test('a session whose images wait has no score: a later upload takes back the score of the earlier ones', async () => {
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    await submitImages(t, session.token, [KNEE_90]);
    await worker.drain();
    const score = () =>
      one<{ score: number | null }>('select score from simulation_sessions where uuid = $1', [
        session.uuid,
      ]);
    assert.equal((await score()).score, 90);
    await submitImages(t, session.token, [markedKnee({ dapMGyCm2: 500 }, 'Knee lateral (left)')]);
    assert.equal((await score()).score, null, 'not final while an image waits');
    await worker.drain();
    assert.equal((await score()).score, 85);
  });

  test('completed before its images are marked: the grade goes to the platform after the last marking, once', async () => {
    const before = result();
    const { token, uuid } = await launchedSession([
      KNEE_90,
      markedKnee({ dapMGyCm2: 500 }, 'Knee lateral (left)'),
    ]);
    const done = await complete(t, token, { reportDetails: { summary: 'Knee', score: 100 } });
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(await itemsOf(uuid, LTI_SCORE_KIND), [], 'no grade at completion');
    assert.deepEqual(
      await one('select grade_awaits_marking, score from simulation_sessions where uuid = $1', [
        uuid,
      ]),
      { grade_awaits_marking: true, score: null },
    );

    // The first image: still no score, still no grade.
    assert.deepEqual(await worker.runOnce(), { done: 1, failed: 0 });
    const half = await report(uuid);
    assert.deepEqual(
      half.evidence.map((e) => [e.markingPending, e.marks?.score ?? null]),
      [
        [false, 90],
        [true, null],
      ],
    );
    assert.equal(half.grade.score, null);
    assert.deepEqual(await itemsOf(uuid, LTI_SCORE_KIND), []);
    assert.deepEqual(result(), before, 'nothing posted while an image waits');

    // The last image: its marking queues the grade in its transaction.
    assert.deepEqual(await worker.runOnce(), { done: 1, failed: 0 });
    assert.deepEqual(
      (await itemsOf(uuid, LTI_SCORE_KIND)).map((i) => i.done),
      [false],
    );
    assert.deepEqual(
      await one('select grade_awaits_marking, score from simulation_sessions where uuid = $1', [
        uuid,
      ]),
      { grade_awaits_marking: false, score: 85 },
    );

    await worker.drain();
    const posted = result();
    assert.equal(posted?.scoreGiven, 85);
    assert.equal(posted?.gradingProgress, 'FullyGraded');
    const completedAt = await one<{ at: Date }>(
      'select completed_at as at from simulation_sessions where uuid = $1',
      [uuid],
    );
    assert.equal(
      posted?.timestamp,
      new Date(completedAt.at).toISOString(),
      'dated at the completion',
    );
    assert.equal((await report(uuid)).grade.release, 'released');
    assert.equal(await gradePosts(uuid), 1);

    // Markings done again queue nothing more; the grade went once.
    await redo(uuid);
    await worker.drain();
    assert.equal((await itemsOf(uuid, LTI_SCORE_KIND)).length, 1);
    assert.equal(await gradePosts(uuid), 1);
  });

  test('after review: the pending result goes out after the last marking, and the release follows', async () => {
    await t.db.query(
      `update organisations set grade_release = 'after_review' where name = 'Demo Hospital'`,
    );
    const { token, uuid } = await launchedSession([KNEE_80]);
    assert.equal((await complete(t, token, {})).statusCode, 200);
    assert.equal(
      (await report(uuid)).grade.release,
      'not_applicable',
      'nothing pending before marking',
    );
    await worker.drain();
    assert.equal(result()?.gradingProgress, 'PendingManual');
    assert.equal(result()?.scoreGiven, undefined);
    const seen = await report(uuid);
    assert.equal(seen.grade.score, 80);
    assert.equal(seen.grade.release, 'pending');
  });

  test('an image that cannot be marked is left unmarked after the last attempt; the completion waits no longer', async () => {
    const { token, uuid, ids } = await launchedSession([KNEE_90]);
    assert.equal((await complete(t, token, {})).statusCode, 200);
    const scheme = await one<{ id: number; marking_scheme: unknown }>(
      `select id, marking_scheme from product_configurations
        where lower(configuration_name) = 'radiography.lower-limb.knee'`,
    );
    // A scheme the marking cannot read (the API validates every scheme it saves; this is the
    // database's, standing in for any bug that makes marking throw).
    await t.db.query(
      `update product_configurations set marking_scheme = '"broken"' where id = $1`,
      [scheme.id],
    );
    try {
      assert.deepEqual(await worker.runOnce(), { done: 0, failed: 1 });
      let [item] = await itemsOf(uuid, MARK_EVIDENCE_KIND);
      assert.equal(item!.done, false);
      assert.ok(item!.last_error, 'the failure is recorded');
      await t.db.query('update outbox set attempts = $2, next_attempt_at = now() where id = $1', [
        item!.id,
        MARK_EVIDENCE_MAX_ATTEMPTS - 1,
      ]);
      assert.deepEqual(await worker.runOnce(), { done: 1, failed: 0 });
      [item] = await itemsOf(uuid, MARK_EVIDENCE_KIND);
      assert.equal(item!.done, true);
      assert.match(item!.last_error ?? '', /^given up after 10 attempts/);
    } finally {
      await t.db.query(
        'update product_configurations set marking_scheme = $2::jsonb where id = $1',
        [scheme.id, JSON.stringify(scheme.marking_scheme)],
      );
    }
    const got = await report(uuid);
    assert.deepEqual(
      got.evidence.map((e) => [e.id, e.markingPending, e.marks]),
      [[ids[0], false, null]],
    );
    assert.equal(got.grade.score, null);
    // No score, so no grade: but the completion's wait is over, not left for ever.
    await worker.drain();
    assert.deepEqual(await itemsOf(uuid, LTI_SCORE_KIND), []);
    assert.deepEqual(
      await one('select grade_awaits_marking from simulation_sessions where uuid = $1', [uuid]),
      { grade_awaits_marking: false },
    );
  });
});
