import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLms, type RunningLms } from '@portal/lms';
import { buildTestApp, type TestApp } from '../helper';
import { freePort, registerStandIn, standInLaunch } from './lms-browser';
import { LTI_SCORE_KIND } from '../../src/lti/grade-passback';
import type { EvidenceSubmission } from '@portal/contract';
import {
  complete,
  join,
  KNEE_80,
  learner,
  markedKnee,
  productId,
  submitImages,
  userHeaders,
} from '../routes/api/v1/simulator/session-fixtures';

/**
 * Grade passback against the learning-platform stand-in (`@portal/lms`) over HTTP: its real
 * course link launches into the listening API (OIDC login → platform auth → id_token post), the
 * simulator completes the session, and the API's outbox worker posts the score to the link's line
 * item with a token from the stand-in's token endpoint (which checks our client assertion against
 * the API's published JWKS). The stand-in's outage switch stands for a platform that is down.
 */

describe('LTI grade passback against the learning-platform stand-in', () => {
  let t: TestApp;
  let lms: RunningLms;
  let apiUrl: string;

  before(async () => {
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    lms = await startLms({ portalUrl: apiUrl, testEndpoints: true });
    t = await buildTestApp({ portalUrl: apiUrl });
    await t.app.listen({ port, host: '127.0.0.1' });
    // The stand-in's fixed endpoints (lms/README.md), registered for Demo Hospital as the demo
    // data registers it: its users are the demo accounts, linked by their e-mail.
    await registerStandIn(t.db, lms.url);
  });
  after(async () => {
    await t.close();
    await lms.close();
  });

  /** The learner (stand-in user 101 = the demo learner) presses "Launch Radiography". */
  const launch = () => standInLaunch(lms.url, '101');

  /**
   * Launch, start, join, submit the images, complete claiming 100; answers the session. The
   * gradebook gets the images' computed score, never the claim (issue #23).
   */
  async function completedSession(images: readonly EvidenceSubmission[]) {
    const launchId = await launch();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
      headers: await userHeaders(learner.sub),
      payload: {
        configuration: 'radiography.lower-limb.knee',
        mode: 'Desktop',
        ltiLaunchId: launchId,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { token, uuid } = res.json<{ token: string; uuid: string }>();
    assert.equal((await join(t, token)).statusCode, 200);
    await submitImages(t, token, images);
    const done = await complete(t, token, { reportDetails: { summary: 'Knee AP', score: 100 } });
    assert.equal(done.statusCode, 200, done.body);
    return uuid;
  }

  const lineItem = () => lms.app.lms.store.lineItems().find((i) => i.resourceLinkId === 'link-1')!;
  const scores = () => lms.app.lms.store.scoresOf(lineItem().id);
  const settle = () => t.app.outboxWorker.idle();

  async function retryNow(uuid: string) {
    await t.db.query(
      `update outbox set next_attempt_at = now() where payload->>'sessionUuid' = $1`,
      [uuid],
    );
    t.app.outboxWorker.kick();
    await settle();
  }

  const itemOf = async (uuid: string) =>
    (
      await t.db.query<{ done: boolean; attempts: number; last_error: string | null }>(
        `select done_at is not null as done, attempts, last_error from outbox
          where kind = $2 and payload->>'sessionUuid' = $1`,
        [uuid, LTI_SCORE_KIND],
      )
    ).rows[0]!;

  const posts = async (uuid: string) =>
    (
      await t.db.query<{ action: string }>(
        `select action from audit_log where entity_type = 'lti_score' and entity_id = $1`,
        [uuid],
      )
    ).rows.map((r) => r.action);

  test('a completed session launched from the course: the gradebook gets the score', async () => {
    const uuid = await completedSession([KNEE_80]);
    await settle();
    const completedAt = (
      await t.db.query<{ at: Date }>(
        'select completed_at as at from simulation_sessions where uuid = $1',
        [uuid],
      )
    ).rows[0]!.at;
    const [score, ...more] = scores();
    assert.deepEqual(more, []);
    const { receivedAt, ...fields } = score!;
    assert.ok(receivedAt);
    assert.deepEqual(fields, {
      userId: '101',
      scoreGiven: 80,
      scoreMaximum: 100,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
      timestamp: new Date(completedAt).toISOString(),
    });
    assert.equal((await itemOf(uuid)).done, true);
    assert.deepEqual(await posts(uuid), ['post']);
    // Never twice: later rounds leave the stored score as it was received.
    await retryNow(uuid);
    assert.equal(scores()[0]!.receivedAt, receivedAt);
  });

  test('the platform down: retried with backoff, after recovery exactly one score', async () => {
    const before = scores()[0];
    lms.setOutage(true);
    let uuid: string;
    try {
      // Centred 25 mm off (none of centring's 20) and underexposed, deviation index −4 (none of
      // the exposure index's 15): 65 %.
      uuid = await completedSession([markedKnee({ centringErrorMm: 25, deviationIndex: -4 })]);
      await settle();
      let item = await itemOf(uuid);
      assert.equal(item.done, false);
      assert.match(item.last_error ?? '', /HTTP 503/);
      await retryNow(uuid);
      item = await itemOf(uuid);
      assert.equal(item.done, false);
      assert.equal(item.attempts, 2);
      assert.deepEqual(scores(), [before], 'nothing new while down');
    } finally {
      lms.setOutage(false);
    }
    await retryNow(uuid);
    const [score, ...more] = scores();
    assert.deepEqual(more, []);
    assert.equal(score!.scoreGiven, 65);
    assert.equal((await itemOf(uuid)).done, true);
    assert.deepEqual(await posts(uuid), ['post']);
    const receivedAt = score!.receivedAt;
    await retryNow(uuid);
    assert.equal(scores()[0]!.receivedAt, receivedAt, 'not posted again');
  });
});
