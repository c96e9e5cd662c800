import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FEEDBACK_COMMENT_MAX_LENGTH,
  OVERRIDE_REASON_MAX_LENGTH,
  type Report,
  type UserNotification,
} from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { deleteAllReports } from '../../../../factories/reports';
import { FEEDBACK_MESSAGES } from '../../../../../src/services/reports/save-feedback';
import { markedReport } from './feedback-fixtures';

/**
 * Educator feedback (issue #23 point 3): comments per image and report, mark overrides that
 * re-derive the scores, who may give it, the audit log and the learner's notification.
 */
describe('educator feedback on a report', () => {
  let t: TestApp;
  let report: { uuid: string; evidenceId: number };
  const learner = account('learner', 'Demo Hospital');
  const educator = account('educator', 'Demo Hospital');
  const otherEducator = account('educator', 'Demo Brightspace College');
  const sysadmin = account('sys admin');

  const imageUrl = (evidenceId = report.evidenceId, uuid = report.uuid) =>
    `/api/v1/report/${uuid}/evidence/${evidenceId}/feedback`;
  const reportUrl = (uuid = report.uuid) => `/api/v1/report/${uuid}/feedback`;
  const put = async (sub: string, url: string, payload: unknown) => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...(await authHeader(sub)), ...xsrfHeaders() },
      payload: payload as Record<string, unknown>,
    });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };
  const get = async (sub: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: await authHeader(sub) });
    return { status: res.statusCode, body: res.json<unknown>() };
  };
  const auditRows = async () =>
    (
      await t.db.query<{ action: string; actor_email: string; before: unknown; after: unknown }>(
        `select action, actor_email, before, after from audit_log
          where entity_type = 'report' and entity_id = $1 order by id`,
        [report.uuid],
      )
    ).rows;
  const override = (mark: number, reason = 'Centred within 1 cm on review.') => ({
    comment: '',
    overrides: [{ evidenceId: report.evidenceId, criterion: 'centring', mark, reason }],
  });

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(async () => {
    await deleteAllReports(t.db);
    await t.db.query('delete from user_notifications');
    report = await markedReport(t.db, learner.sub);
  });

  test('an educator comments an image; the learner reads it in the report and is notified', async () => {
    const res = await put(educator.sub, imageUrl(), { comment: '  Centre on the joint space.  ' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const seen = (await get(learner.sub, `/api/v1/report/${report.uuid}`)).body as Report;
    const feedback = seen.evidence[0]!.feedback;
    assert.equal(feedback?.comment, 'Centre on the joint space.');
    assert.equal(feedback?.authorName, `${educator.firstName} ${educator.lastName}`);
    assert.ok(feedback && Date.parse(feedback.updatedAt) > Date.now() - 60_000);
    assert.equal(seen.canGiveFeedback, false, 'the learner gives no feedback');
    assert.equal((res.body as unknown as Report).canGiveFeedback, true);

    const audit = await auditRows();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.action, 'give_feedback');
    assert.equal(audit[0]!.actor_email, educator.email);
    assert.deepEqual(
      (audit[0]!.after as { comment: string }).comment,
      'Centre on the joint space.',
    );

    const mine = (await get(learner.sub, '/api/v1/notification/mine')).body as UserNotification[];
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.kind, 'report_feedback');
    assert.equal(mine[0]!.reportId, report.uuid);
    assert.equal(mine[0]!.read, false);
    const read = await t.app.inject({
      method: 'POST',
      url: `/api/v1/notification/mine/${mine[0]!.id}/read`,
      headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders() },
    });
    assert.equal(read.statusCode, 204);
    const after = (await get(learner.sub, '/api/v1/notification/mine')).body as UserNotification[];
    assert.equal(after[0]!.read, true);
    // The educator's own list stays empty: notifications are the learner's.
    assert.deepEqual((await get(educator.sub, '/api/v1/notification/mine')).body, []);
  });

  test('an empty comment clears it, audited, with no notification', async () => {
    await put(educator.sub, imageUrl(), { comment: 'First.' });
    await t.db.query('delete from user_notifications');
    const res = await put(educator.sub, imageUrl(), { comment: '   ' });
    assert.equal(res.status, 200);
    assert.equal((res.body as unknown as Report).evidence[0]!.feedback, null);
    const audit = await auditRows();
    assert.deepEqual(
      audit.map((a) => [a.action, (a.before as { comment: unknown }).comment]),
      [
        ['give_feedback', null],
        ['give_feedback', 'First.'],
      ],
    );
    assert.deepEqual((await get(learner.sub, '/api/v1/notification/mine')).body, []);
  });

  test('the report comment and an override: the mark, the image score and the session score change', async () => {
    const res = await put(educator.sub, reportUrl(), {
      comment: 'Good session overall.',
      overrides: [
        {
          evidenceId: report.evidenceId,
          criterion: 'centring',
          mark: 18,
          reason: 'Centred within 1 cm on review.',
        },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = res.body as unknown as Report;
    assert.equal(body.feedback?.comment, 'Good session overall.');
    const image = body.evidence[0]!;
    assert.equal(image.marks?.criteria.find((c) => c.criterion === 'centring')?.mark, 18);
    // (18 + 20) / 40
    assert.equal(image.marks?.score, 95);
    assert.equal(body.grade.score, 95);
    assert.deepEqual(
      image.overrides.map(({ updatedAt: _u, ...o }) => o),
      [
        {
          criterion: 'centring',
          originalMark: 10,
          mark: 18,
          reason: 'Centred within 1 cm on review.',
          authorName: `${educator.firstName} ${educator.lastName}`,
        },
      ],
    );
    const audit = await auditRows();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['give_feedback', 'override_mark'],
    );
    assert.deepEqual(audit[1]!.before, {
      learner: `${learner.firstName} ${learner.lastName}`,
      marks: [{ evidenceId: report.evidenceId, criterion: 'centring', mark: 10 }],
      score: 75,
    });
    assert.equal((audit[1]!.after as { score: number }).score, 95);

    // A second override keeps the marking's original; the marking's own mark removes it.
    const again = (await put(educator.sub, reportUrl(), override(5))).body as unknown as Report;
    assert.equal(again.evidence[0]!.overrides[0]!.originalMark, 10);
    assert.equal(again.grade.score, 63);
    assert.equal(again.feedback, null, 'the empty comment cleared the report comment');
    const undone = (await put(educator.sub, reportUrl(), override(10))).body as unknown as Report;
    assert.deepEqual(undone.evidence[0]!.overrides, []);
    assert.equal(undone.evidence[0]!.marks?.score, 75);
    assert.equal(undone.grade.score, 75);

    // Without `comment` an override leaves the report's comment as it is.
    await put(educator.sub, reportUrl(), { comment: 'Kept.' });
    const { comment: _c, ...withoutComment } = override(12);
    const kept = (await put(educator.sub, reportUrl(), withoutComment)).body as unknown as Report;
    assert.equal(kept.feedback?.comment, 'Kept.');
    assert.equal(kept.evidence[0]!.overrides[0]!.mark, 12);
  });

  test("a global administrator may give feedback on any organisation's report", async () => {
    const res = await put(sysadmin.sub, imageUrl(), { comment: 'Seen by the portal team.' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  test("the learner, another organisation and the educator's own report are refused", async () => {
    const learnerTry = await put(learner.sub, imageUrl(), { comment: 'Great job, me.' });
    assert.equal(learnerTry.status, 403);
    const learnerOverride = await put(learner.sub, reportUrl(), override(20));
    assert.equal(learnerOverride.status, 403);
    assert.equal((await put(otherEducator.sub, imageUrl(), { comment: 'x' })).status, 404);
    assert.equal((await put(otherEducator.sub, reportUrl(), override(20))).status, 404);
    const own = await markedReport(t.db, educator.sub);
    const ownTry = await put(educator.sub, imageUrl(own.evidenceId, own.uuid), { comment: 'x' });
    assert.equal(ownTry.status, 403);
    assert.equal(ownTry.body.detail, FEEDBACK_MESSAGES.notEducator);
    assert.deepEqual(await auditRows(), []);
    const marks = await t.db.query<{ mark: string }>(
      `select mark from evidence_marks where evidence_id = $1 and criterion = 'centring'`,
      [report.evidenceId],
    );
    assert.equal(Number(marks.rows[0]!.mark), 10);
  });

  test('an image of another report is 404', async () => {
    const other = await markedReport(t.db, learner.sub);
    const res = await put(educator.sub, imageUrl(other.evidenceId), { comment: 'x' });
    assert.equal(res.status, 404);
    assert.equal(res.body.detail, FEEDBACK_MESSAGES.noSuchImage);
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ comment: 'x'.repeat(FEEDBACK_COMMENT_MAX_LENGTH + 1) }, 'comment', 'image'],
      [{ comment: 'x'.repeat(FEEDBACK_COMMENT_MAX_LENGTH + 1) }, 'comment', 'report'],
      [override(21), 'overrides.0.mark', 'report'],
      [override(-1), 'overrides.0.mark', 'report'],
      [override(15, ''), 'overrides.0.reason', 'report'],
      [override(15, '   '), 'overrides.0.reason', 'report'],
      [override(15, 'r'.repeat(OVERRIDE_REASON_MAX_LENGTH + 1)), 'overrides.0.reason', 'report'],
      [
        {
          comment: '',
          overrides: [{ evidenceId: report.evidenceId, criterion: 'kV', mark: 1, reason: 'x' }],
        },
        'overrides.0.criterion',
        'report',
      ],
      [
        {
          comment: '',
          overrides: [{ evidenceId: 999999, criterion: 'dose', mark: 1, reason: 'x' }],
        },
        'overrides.0.evidenceId',
        'report',
      ],
      [
        { comment: '', overrides: [{ criterion: 'dose', mark: 1, reason: 'x' }] },
        'overrides.0.evidenceId',
        'report',
      ],
      [
        {
          comment: '',
          overrides: [
            { evidenceId: report.evidenceId, criterion: 'dose', mark: 1, reason: 'x' },
            { evidenceId: report.evidenceId, criterion: 'dose', mark: 2, reason: 'y' },
          ],
        },
        'overrides.1.criterion',
        'report',
      ],
    ];
    for (const [payload, field, route] of cases) {
      const res = await put(educator.sub, route === 'image' ? imageUrl() : reportUrl(), payload);
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body)}`);
      assert.ok(field in res.body, `${field} named in ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual(await auditRows(), [], 'nothing written by a refused request');
    const score = await t.db.query<{ score: number }>(
      'select score from simulation_sessions where uuid = $1',
      [report.uuid],
    );
    assert.equal(score.rows[0]!.score, 75);
  });

  test("another user's notification cannot be marked read", async () => {
    await put(educator.sub, imageUrl(), { comment: 'Mine to read.' });
    const [n] = (await get(learner.sub, '/api/v1/notification/mine')).body as UserNotification[];
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/notification/mine/${n!.id}/read`,
      headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
    });
    assert.equal(res.statusCode, 404);
  });
});
