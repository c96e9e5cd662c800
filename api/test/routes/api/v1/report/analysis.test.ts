import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ANALYSIS_MAX_LENGTH,
  ANALYSIS_STATUS,
  CSRF_FAILED,
  type Evidence,
  type Report,
} from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { createReport, deleteAllReports, type CreatedReport } from '../../../../factories/reports';
import { ONLY_OWNER_MAY_ANALYSE } from '../../../../../src/routes/api/v1/report/index';

describe('PUT /api/v1/report/:reportId/evidence/:evidenceId/analysis', () => {
  let t: TestApp;
  let created: CreatedReport;
  const learner = account('learner', 'Demo Hospital');
  const educator = account('educator', 'Demo Hospital');
  const sysadmin = account('sys admin');
  const otherLearner = account('learner', 'Other College');

  const url = (evidenceId = created.evidenceIds[0], reportId = created.uuid) =>
    `/api/v1/report/${reportId}/evidence/${evidenceId}/analysis`;
  const put = async (sub: string, payload: unknown, target = url()) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: target,
      headers: { ...(await authHeader(sub)), ...xsrfHeaders() },
      payload: payload as Record<string, unknown>,
    });
    return { status: res.statusCode, body: res.json<unknown>() };
  };
  const stored = async () =>
    (
      await t.db.query<{
        analysis_status_id: number;
        analysis: string | null;
        analysed_at: Date | null;
      }>('select analysis_status_id, analysis, analysed_at from evidence where id = $1', [
        created.evidenceIds[0],
      ])
    ).rows[0];

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(async () => {
    await deleteAllReports(t.db);
    created = await createReport(t.db, { userId: learner.sub, evidence: [{}, {}] });
  });

  test('the owner accepts an item and the report reflects it', async () => {
    const res = await put(learner.sub, {
      analysisStatus: ANALYSIS_STATUS.accepted,
      analysis: 'Well centred.',
    });
    assert.equal(res.status, 200);
    const evidence = res.body as Evidence;
    assert.equal(evidence.id, created.evidenceIds[0]);
    assert.equal(evidence.analysisStatus, ANALYSIS_STATUS.accepted);
    assert.equal(evidence.analysis, 'Well centred.');
    assert.equal(evidence.userEmail, learner.email);
    const row = await stored();
    assert.equal(row?.analysis_status_id, ANALYSIS_STATUS.accepted);
    assert.ok(row?.analysed_at);

    const report = await t.app.inject({
      url: `/api/v1/report/${created.uuid}`,
      headers: await authHeader(learner.sub),
    });
    assert.equal(report.json<Report>().analysisStatusSummary, 'partial');
    await put(
      learner.sub,
      { analysisStatus: ANALYSIS_STATUS.rejected, analysis: 'Cut off.' },
      url(created.evidenceIds[1]),
    );
    const after = await t.app.inject({
      url: `/api/v1/report/${created.uuid}`,
      headers: await authHeader(learner.sub),
    });
    assert.equal(after.json<Report>().analysisStatusSummary, 'completed');
  });

  test('an analysis may be changed, and takes the longest allowed text', async () => {
    await put(learner.sub, { analysisStatus: ANALYSIS_STATUS.accepted, analysis: 'first' });
    const long = 'x'.repeat(ANALYSIS_MAX_LENGTH);
    const res = await put(learner.sub, {
      analysisStatus: ANALYSIS_STATUS.rejected,
      analysis: long,
    });
    assert.equal(res.status, 200);
    assert.equal((await stored())?.analysis, long);
  });

  test('a viewer who is not the owner is refused; one who cannot see the report is told it does not exist', async () => {
    const body = { analysisStatus: ANALYSIS_STATUS.accepted, analysis: 'Not mine.' };
    assert.deepEqual(await put(educator.sub, body), {
      status: 403,
      body: { detail: ONLY_OWNER_MAY_ANALYSE },
    });
    assert.deepEqual(await put(sysadmin.sub, body), {
      status: 403,
      body: { detail: ONLY_OWNER_MAY_ANALYSE },
    });
    assert.equal((await put(otherLearner.sub, body)).status, 404);
    const row = await stored();
    assert.equal(row?.analysis_status_id, ANALYSIS_STATUS.notAnalysed);
    assert.equal(row?.analysis, null);
  });

  test('evidence of another report, an unknown report and a running session are not found', async () => {
    const body = { analysisStatus: ANALYSIS_STATUS.accepted, analysis: 'ok' };
    const other = await createReport(t.db, { userId: learner.sub, evidence: [{}] });
    assert.equal((await put(learner.sub, body, url(other.evidenceIds[0]))).status, 404);
    assert.equal(
      (await put(learner.sub, body, url(1, '00000000-0000-4000-8000-000000000000'))).status,
      404,
    );
    const running = await createReport(t.db, {
      userId: learner.sub,
      status: 'in_progress',
      evidence: [{}],
    });
    assert.equal(
      (await put(learner.sub, body, url(running.evidenceIds[0], running.uuid))).status,
      404,
    );
    assert.equal((await stored())?.analysis, null);
  });

  const badInputs: Array<[string, unknown, Record<string, string[]>]> = [
    [
      'missing fields',
      {},
      { analysisStatus: ['This field is required.'], analysis: ['This field is required.'] },
    ],
    [
      '"not analysed"',
      { analysisStatus: ANALYSIS_STATUS.notAnalysed, analysis: 'x' },
      { analysisStatus: ['must be one of: 22002, 22003'] },
    ],
    [
      'an unknown status',
      { analysisStatus: 99, analysis: 'x' },
      { analysisStatus: ['must be one of: 22002, 22003'] },
    ],
    [
      'a status as text',
      { analysisStatus: '22002', analysis: 'x' },
      { analysisStatus: ['must be number', 'must be one of: 22002, 22003'] },
    ],
    [
      'a number as the reason',
      { analysisStatus: 22002, analysis: 5 },
      { analysis: ['must be string'] },
    ],
    [
      'an empty reason',
      { analysisStatus: 22002, analysis: '' },
      { analysis: ['must NOT have fewer than 1 characters'] },
    ],
    [
      'an oversize reason',
      { analysisStatus: 22002, analysis: 'x'.repeat(ANALYSIS_MAX_LENGTH + 1) },
      { analysis: [`must NOT have more than ${ANALYSIS_MAX_LENGTH} characters`] },
    ],
  ];
  for (const [name, payload, errors] of badInputs) {
    test(`${name} → 400 with field errors, nothing written`, async () => {
      const res = await put(learner.sub, payload);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, errors);
      const row = await stored();
      assert.equal(row?.analysis_status_id, ANALYSIS_STATUS.notAnalysed);
      assert.equal(row?.analysis, null);
      assert.equal(row?.analysed_at, null);
    });
  }

  test('a body that is not JSON, a bad evidence id and a missing XSRF token are refused', async () => {
    const notJson = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: {
        ...(await authHeader(learner.sub)),
        ...xsrfHeaders(),
        'content-type': 'application/json',
      },
      payload: '{"analysisStatus":',
    });
    assert.equal(notJson.statusCode, 400);
    const badId = await put(learner.sub, { analysisStatus: 22002, analysis: 'x' }, url(0));
    assert.equal(badId.status, 400);
    const noXsrf = await t.app.inject({
      method: 'PUT',
      url: url(),
      headers: await authHeader(learner.sub),
      payload: { analysisStatus: 22002, analysis: 'x' },
    });
    assert.equal(noXsrf.statusCode, 403);
    assert.deepEqual(noXsrf.json(), { detail: CSRF_FAILED });
    assert.equal((await stored())?.analysis, null);
  });
});
