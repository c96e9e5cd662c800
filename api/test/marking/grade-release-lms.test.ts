import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvidenceSubmission, LtiCourseGradeRelease, Report } from '@portal/contract';
import type { RunningLms } from '@portal/lms';
import { account, type TestApp } from '../helper';
import { registerStandIn, standInLaunch, startApiWithStandIn } from '../lti/lms-browser';
import {
  complete,
  createSession,
  educator,
  join,
  KNEE_80,
  KNEE_90,
  learner,
  markedKnee,
  productId,
  submitImages,
  userHeaders,
} from '../routes/api/v1/simulator/session-fixtures';

/**
 * Issue #23 against the learning-platform stand-in's gradebook: the score a simulator reports is
 * never what the course gets (the forged-grade hole), and grade release per organisation and per
 * course (automatic, or only after an educator's review).
 */
describe('computed grades and grade release against the learning-platform stand-in', () => {
  let t: TestApp;
  let lms: RunningLms;
  const otherEducator = account('educator', 'Demo Brightspace College');

  before(async () => {
    ({ t, lms } = await startApiWithStandIn());
    await registerStandIn(t.db, lms.url);
  });
  after(async () => {
    await t.close();
    await lms.close();
  });
  beforeEach(async () => {
    await t.db.query(
      `update organisations set grade_release = 'automatic' where name = 'Demo Hospital'`,
    );
    await t.db.query('update lti_courses set grade_release = null');
  });

  /** Launched from the stand-in's course as its user 101 (the demo learner), images submitted. */
  async function completedSession(images: readonly EvidenceSubmission[], reported = 100) {
    const { token, uuid } = await createSession(t, {
      ltiLaunchId: await standInLaunch(lms.url, '101'),
    });
    assert.equal((await join(t, token)).statusCode, 200);
    await submitImages(t, token, images);
    const done = await complete(t, token, {
      reportDetails: { summary: 'Knee AP', score: reported },
    });
    assert.equal(done.statusCode, 200, done.body);
    await t.app.outboxWorker.idle();
    return uuid;
  }

  const lineItem = () => lms.app.lms.store.lineItems().find((i) => i.resourceLinkId === 'link-1');
  /** The learner's result in the course's gradebook (one per user and line item). */
  const result = () => {
    const item = lineItem();
    return item ? lms.app.lms.store.scoresOf(item.id).find((s) => s.userId === '101') : undefined;
  };

  async function report(uuid: string, sub: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/report/${uuid}`,
      headers: await userHeaders(sub),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Report>();
  }

  const release = async (uuid: string, sub: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/report/${uuid}/release-grade`,
      headers: await userHeaders(sub),
    });

  test('a completion claiming 100 without any image: no score, nothing posted', async () => {
    const before = result();
    const uuid = await completedSession([], 100);
    assert.deepEqual(result(), before, 'the gradebook is as it was');
    const { grade } = await report(uuid, learner.sub);
    assert.equal(grade.score, null);
    assert.equal(grade.reportedScore, 100);
    assert.equal(grade.release, 'not_applicable');
    const items = await t.db.query(`select 1 from outbox where payload->>'sessionUuid' = $1`, [
      uuid,
    ]);
    assert.equal(items.rows.length, 0);
  });

  test('with images the computed score reaches the gradebook, never the claimed one', async () => {
    // The best of two attempts of one projection: 90 % (the repeat loses half of repeats' 10,
    // 85 %), and a second projection at 80 %: (90 + 80) / 2 = 85.
    const uuid = await completedSession(
      [
        KNEE_90,
        markedKnee({ centringErrorMm: 15 }),
        markedKnee({ dapMGyCm2: 500 }, 'Knee lateral (left)'),
      ],
      100,
    );
    assert.equal(result()?.scoreGiven, 85);
    assert.equal(result()?.gradingProgress, 'FullyGraded');
    const got = await report(uuid, learner.sub);
    assert.equal(got.grade.score, 85);
    assert.equal(got.grade.reportedScore, 100);
    assert.equal(got.grade.release, 'released');
    assert.deepEqual(
      got.evidence.map((e) => e.marks?.score),
      [90, 85, 80],
    );
    const repeat = got.evidence[1]!.marks!.criteria.find((c) => c.criterion === 'repeats');
    assert.deepEqual(repeat, {
      criterion: 'repeats',
      mark: 5,
      max: 10,
      reason: 'repeated',
      value: 1,
      limit: 0,
    });
  });

  test('after review: the course holds a pending result until an educator releases the grade', async () => {
    await t.db.query(
      `update organisations set grade_release = 'after_review' where name = 'Demo Hospital'`,
    );
    const uuid = await completedSession([KNEE_80]);
    const pending = result();
    assert.equal(pending?.gradingProgress, 'PendingManual');
    assert.equal(pending?.scoreGiven, undefined, 'no score while pending');

    const seen = await report(uuid, educator.sub);
    assert.deepEqual(
      { ...seen.grade, releasedAt: null },
      {
        score: 80,
        reportedScore: 100,
        passMark: 60,
        release: 'pending',
        releasedAt: null,
        canRelease: true,
      },
    );
    assert.equal((await report(uuid, learner.sub)).grade.canRelease, false);

    // The learner cannot release their own grade; another organisation's educator does not see it.
    const byLearner = await release(uuid, learner.sub);
    assert.equal(byLearner.statusCode, 403, byLearner.body);
    assert.equal((await release(uuid, otherEducator.sub)).statusCode, 404);
    assert.equal(result()?.gradingProgress, 'PendingManual');

    const released = await release(uuid, educator.sub);
    assert.equal(released.statusCode, 200, released.body);
    assert.equal(released.json<Report>().grade.release, 'released');
    await t.app.outboxWorker.idle();
    const final = result();
    assert.equal(final?.gradingProgress, 'FullyGraded');
    assert.equal(final?.scoreGiven, 80);
    assert.ok(
      Date.parse(final!.timestamp) > Date.parse(pending!.timestamp),
      'newer than the pending result',
    );

    const again = await release(uuid, educator.sub);
    assert.equal(again.statusCode, 409, again.body);
    const audit = await t.db.query<{ actor_name: string; after: { score: number } }>(
      `select actor_name, after from audit_log
        where entity_type = 'report' and action = 'release_grade' and entity_id = $1`,
      [uuid],
    );
    assert.equal(audit.rows.length, 1);
    assert.equal(audit.rows[0]!.after.score, 80);
  });

  const putFeedback = async (url: string, sub: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: await userHeaders(sub),
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    await t.app.outboxWorker.idle();
    return res.json<Report>();
  };

  test('feedback on a released grade: the gradebook gets the re-derived score with the comment', async () => {
    const uuid = await completedSession([KNEE_80]);
    const first = result();
    assert.equal(first?.scoreGiven, 80);
    // The simulator's summary ("Knee AP") is the learner's text: no comment without feedback.
    assert.equal(first?.comment, undefined, 'no comment without feedback');
    const { evidence } = await report(uuid, educator.sub);
    const image = evidence[0]!;
    const dose = image.marks!.criteria.find((c) => c.criterion === 'dose')!;
    assert.ok(dose.mark! < dose.max, 'the fixture lost marks on dose');

    await putFeedback(`/api/v1/report/${uuid}/evidence/${image.id}/feedback`, educator.sub, {
      comment: 'Collimate tighter to bring the dose down.',
    });
    const commented = result();
    assert.equal(commented?.scoreGiven, 80);
    assert.equal(
      commented?.comment,
      `${image.practiceActivity}: Collimate tighter to bring the dose down.`,
    );
    assert.ok(Date.parse(commented!.timestamp) > Date.parse(first!.timestamp), 'sent as newer');

    const overridden = await putFeedback(`/api/v1/report/${uuid}/feedback`, educator.sub, {
      comment: 'Well positioned; watch the exposure.',
      overrides: [
        { evidenceId: image.id, criterion: 'dose', mark: dose.max, reason: 'DAP meter misread.' },
      ],
    });
    assert.equal(overridden.grade.score, 100);
    const final = result();
    assert.equal(final?.scoreGiven, 100);
    assert.equal(final?.gradingProgress, 'FullyGraded');
    assert.equal(
      final?.comment,
      'Well positioned; watch the exposure.\n\n' +
        `${image.practiceActivity}: Collimate tighter to bring the dose down.`,
    );
  });

  test('a session the learner closed after completing it: the release still reaches the gradebook', async () => {
    await t.db.query(
      `update organisations set grade_release = 'after_review' where name = 'Demo Hospital'`,
    );
    const uuid = await completedSession([KNEE_90]);
    assert.equal(result()?.gradingProgress, 'PendingManual');
    // The launch page closes the session once the simulator has completed it (status 'closed').
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${await productId(t.db, 'radiography')}/session/${uuid}/close`,
      headers: await userHeaders(learner.sub),
    });
    assert.equal(closed.statusCode, 200, closed.body);
    await putFeedback(`/api/v1/report/${uuid}/feedback`, educator.sub, {
      comment: 'Well centred.',
    });

    assert.equal((await release(uuid, educator.sub)).statusCode, 200);
    await t.app.outboxWorker.idle();
    assert.equal(result()?.gradingProgress, 'FullyGraded');
    assert.equal(result()?.scoreGiven, 90);
    assert.equal(result()?.comment, 'Well centred.');
  });

  test('feedback on a grade awaiting review waits for the release, which carries it', async () => {
    await t.db.query(
      `update organisations set grade_release = 'after_review' where name = 'Demo Hospital'`,
    );
    const uuid = await completedSession([KNEE_90]);
    const pending = result();
    assert.equal(pending?.gradingProgress, 'PendingManual');
    await putFeedback(`/api/v1/report/${uuid}/feedback`, educator.sub, {
      comment: 'Reviewed: good centring.',
    });
    assert.deepEqual(result(), pending, 'nothing sent before the release');

    assert.equal((await release(uuid, educator.sub)).statusCode, 200);
    await t.app.outboxWorker.idle();
    assert.equal(result()?.gradingProgress, 'FullyGraded');
    assert.equal(result()?.scoreGiven, 90);
    assert.equal(result()?.comment, 'Reviewed: good centring.');
  });

  test("a course's own policy overrides its organisation's, both ways", async () => {
    await t.db.query(
      `update organisations set grade_release = 'after_review' where name = 'Demo Hospital'`,
    );
    await t.db.query(`update lti_courses set grade_release = 'automatic'`);
    await completedSession([KNEE_90]);
    assert.equal(result()?.gradingProgress, 'FullyGraded');
    assert.equal(result()?.scoreGiven, 90);

    await t.db.query(
      `update organisations set grade_release = 'automatic' where name = 'Demo Hospital'`,
    );
    await t.db.query(`update lti_courses set grade_release = 'after_review'`);
    await completedSession([KNEE_80]);
    assert.equal(result()?.gradingProgress, 'PendingManual');
  });

  test("the instructor's choice on the launch page: the course's override beats the organisation's default", async () => {
    const educatorLaunch = await standInLaunch(lms.url, '102');
    const educatorSub = account('educator', 'Demo Hospital').sub;
    const put = async (body: unknown, sub = educatorSub) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/lti/course-grade-release',
        headers: await userHeaders(sub),
        payload: body as object,
      });
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/v1/lti/course-grade-release/${educatorLaunch}`,
      headers: await userHeaders(educatorSub),
    });
    assert.equal(shown.statusCode, 200, shown.body);
    assert.deepEqual(shown.json<LtiCourseGradeRelease>(), {
      courseTitle: 'Demo course',
      gradeRelease: null,
      organisationDefault: 'automatic',
    });

    const held = await put({ launchId: educatorLaunch, gradeRelease: 'after_review' });
    assert.equal(held.statusCode, 200, held.body);
    assert.equal(held.json<LtiCourseGradeRelease>().gradeRelease, 'after_review');
    await completedSession([KNEE_90]);
    assert.equal(
      result()?.gradingProgress,
      'PendingManual',
      'the course holds it: the organisation says automatic',
    );

    // Back to the organisation's default (after review now there): the course follows it.
    await t.db.query(
      `update organisations set grade_release = 'after_review' where name = 'Demo Hospital'`,
    );
    const free = await put({ launchId: educatorLaunch, gradeRelease: 'automatic' });
    assert.equal(free.json<LtiCourseGradeRelease>().organisationDefault, 'after_review');
    await completedSession([KNEE_80]);
    assert.equal(result()?.gradingProgress, 'FullyGraded');
    assert.equal(result()?.scoreGiven, 80);
    const cleared = await put({ launchId: educatorLaunch, gradeRelease: null });
    assert.equal(cleared.json<LtiCourseGradeRelease>().gradeRelease, null);
    await completedSession([KNEE_90]);
    assert.equal(
      result()?.gradingProgress,
      'PendingManual',
      "null: the organisation's after review",
    );

    const audit = await t.db.query<{ before: unknown; after: unknown; actor_id: string }>(
      `select before->'gradeRelease' as before, after->'gradeRelease' as after, actor_id::text
         from audit_log where entity_type = 'lti_course' order by id`,
    );
    assert.deepEqual(
      audit.rows.map((r) => [r.before, r.after]),
      [
        [null, 'after_review'],
        ['after_review', 'automatic'],
        ['automatic', null],
      ],
    );

    // A learner's launch may not; someone else's launch is unknown; a wrong value names the field.
    const learnerLaunch = await standInLaunch(lms.url, '101');
    const byLearner = await put(
      { launchId: learnerLaunch, gradeRelease: 'automatic' },
      learner.sub,
    );
    assert.equal(byLearner.statusCode, 403, byLearner.body);
    const notMine = await put(
      { launchId: educatorLaunch, gradeRelease: 'automatic' },
      otherEducator.sub,
    );
    assert.equal(notMine.statusCode, 404, notMine.body);
    const wrong = await put({ launchId: educatorLaunch, gradeRelease: 'sometimes' });
    assert.equal(wrong.statusCode, 400);
    assert.ok(wrong.json<Record<string, unknown>>().gradeRelease, wrong.body);
  });
});
