import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLms, type RunningLms } from '@portal/lms';
import { runLicenseExpiry } from '../../src/jobs/license-expiry';
import { LTI_SCORE_KIND } from '../../src/lti/grade-passback';
import type { EvidenceSubmission } from '@portal/contract';
import type { TestApp } from '../helper';
import {
  KNEE_75,
  KNEE_80,
  KNEE_90,
  learner,
  productId,
  sessionHeader,
  submitImages,
  userHeaders,
} from '../routes/api/v1/simulator/session-fixtures';
import { licenseWith } from '../routes/api/v1/notification/notification-fixtures';
import { organisationId } from '../routes/api/v1/organisation/admin-fixtures';
import { freePort, registerStandIn, standInLaunch } from '../lti/lms-browser';
import { NEEDS_POSTGRES, startTwoInstances, type TwoInstances } from './two-instances';

/**
 * Issue #24 point 1: however many instances run, the outbox does each item once and a daily job
 * runs once a day. Grades go to the learning-platform stand-in (`@portal/lms`) over HTTP; both
 * instances' outbox workers go for the same items at the same moment.
 */
describe('exactly once with two API instances on one PostgreSQL', { skip: NEEDS_POSTGRES, timeout: 120_000 }, () => {
  let two: TwoInstances;
  let lms: RunningLms;

  before(async () => {
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    lms = await startLms({ portalUrl: apiUrl, testEndpoints: true });
    two = await startTwoInstances({ portalUrl: apiUrl });
    await two.a.listen({ port, host: '127.0.0.1' });
    await registerStandIn(two.db, lms.url);
  });
  after(async () => {
    await two?.close();
    await lms?.close();
  });

  /**
   * Launched from the course through A, its image submitted and the session completed through B
   * (the grade is the API's mark of the image, never the simulator's claim: issue #23).
   */
  async function completedSession(image: EvidenceSubmission) {
    const launchId = await standInLaunch(lms.url, '101');
    const created = await two.a.inject({
      method: 'POST',
      url: `/api/v1/product/${await productId(two.db, 'radiography')}/session`,
      headers: await userHeaders(learner.sub),
      payload: { configuration: 'radiography.lower-limb.knee', mode: 'Desktop', ltiLaunchId: launchId },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { token, uuid } = created.json<{ token: string; uuid: string }>();
    const simulator = (url: string, payload?: object) =>
      two.b.inject({ method: 'POST', url, headers: sessionHeader(token), ...(payload ? { payload } : {}) });
    assert.equal((await simulator('/api/v1/simulator/session/join')).statusCode, 200);
    await submitImages({ app: two.b } as TestApp, token, [image]);
    const done = await simulator('/api/v1/simulator/session/complete', {
      reportDetails: { summary: 'Knee AP', score: 100 },
    });
    assert.equal(done.statusCode, 200, done.body);
    return uuid;
  }

  /**
   * Every score the stand-in's score endpoint accepted, in order of arrival (its store keeps only
   * the newest per learner, as a gradebook does, so arrivals are counted where they are stored).
   */
  const arrivals: Array<number | undefined> = [];
  const scoresGiven = () => [...arrivals].sort();
  before(() => {
    const { store } = lms.app.lms;
    const put = store.putScore.bind(store);
    store.putScore = (lineItemId, score) => {
      arrivals.push(score.scoreGiven);
      return put(lineItemId, score);
    };
  });

  test('grades queued while the platform was down go out once each when both workers race for them', async () => {
    lms.setOutage(true);
    const images = [KNEE_90, KNEE_80, KNEE_75, KNEE_90, KNEE_80, KNEE_75];
    const uuids: string[] = [];
    try {
      for (const image of images) uuids.push(await completedSession(image));
      await Promise.all([two.a.outboxWorker.idle(), two.b.outboxWorker.idle()]);
      assert.deepEqual(scoresGiven(), []);
    } finally {
      lms.setOutage(false);
    }
    // Due now for both, and both look at the same moment, several times over.
    await two.db.query(`update outbox set next_attempt_at = now() where kind = $1`, [LTI_SCORE_KIND]);
    for (let round = 0; round < 3; round++) {
      two.a.outboxWorker.kick();
      two.b.outboxWorker.kick();
      await Promise.all([two.a.outboxWorker.idle(), two.b.outboxWorker.idle()]);
    }
    const computed = await two.db.query<{ score: number }>(
      'select score from simulation_sessions where uuid = any($1::uuid[])',
      [uuids],
    );
    const given = computed.rows.map((r) => r.score).sort();
    assert.equal(given.length, images.length);
    assert.deepEqual(scoresGiven(), given, 'each grade arrived once');
    const items = await two.db.query<{ done: boolean; posts: number }>(
      `select o.done_at is not null as done,
              (select count(*)::int from audit_log a
                where a.entity_type = 'lti_score' and a.entity_id = o.payload->>'sessionUuid'
                  and a.action = 'post') as posts
         from outbox o where o.kind = $1`,
      [LTI_SCORE_KIND],
    );
    assert.equal(items.rows.length, given.length);
    assert.ok(items.rows.every((r) => r.done && r.posts === 1), JSON.stringify(items.rows));
  });

  test("a daily job started by both instances at once runs once: one claims the day", async () => {
    const demo = await organisationId(two.db, 'Demo Hospital');
    const ended = await licenseWith(two.db, demo, { expiresInDays: -1 });
    const runs = await Promise.all([runLicenseExpiry(two.a.db), runLicenseExpiry(two.b.db)]);
    assert.equal(runs.filter((r) => r.ran).length, 1, JSON.stringify(runs));
    const entries = await two.db.query(
      `select 1 from audit_log where entity_type = 'license_block' and entity_id = $1 and action = 'update'`,
      [String(ended.id)],
    );
    assert.equal(entries.rowCount, 1);
  });
});
