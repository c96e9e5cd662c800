import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ANALYSIS_STATUS, type ImageUrl, type Report } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import { createReport, deleteAllReports, PNG_1X1, XRAY_DATA } from '../../../../factories/reports';

describe('GET /api/v1/report/:reportId and its images', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const educator = account('educator', 'Demo Hospital');
  const sysadmin = account('sys admin');
  const otherLearner = account('learner', 'Other College');

  const get = async <T>(sub: string, url: string) => {
    const res = await t.app.inject({ url, headers: await authHeader(sub) });
    return { status: res.statusCode, body: res.json<T>() };
  };
  const report = (sub: string, uuid: string) => get<Report>(sub, `/api/v1/report/${uuid}`);

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(() => deleteAllReports(t.db));

  test('the owner reads the report with its evidence in capture order', async () => {
    const created = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: 'Wrist',
      storage: t.app.storage,
      reportDetails: { summary: 'Two images.', score: 75, durationSeconds: 300 },
      evidence: [
        { practiceActivity: 'Wrist PA', image: true },
        {
          practiceActivity: 'Wrist lateral',
          analysisStatus: ANALYSIS_STATUS.rejected,
          analysis: 'Rotated.',
        },
      ],
    });
    const { status, body } = await report(learner.sub, created.uuid);
    assert.equal(status, 200);
    assert.equal(body.uuid, created.uuid);
    assert.equal(body.id, created.id);
    assert.equal(body.simulation, 'Radiography');
    assert.equal(body.description, 'Wrist');
    assert.equal(body.mode, 'Desktop');
    assert.equal(body.userName, `${learner.firstName} ${learner.lastName}`);
    assert.equal(body.userEmail, learner.email);
    assert.equal(body.isOwner, true);
    assert.equal(body.analysisStatusSummary, 'partial');
    assert.deepEqual(body.reportDetails, {
      summary: 'Two images.',
      score: 75,
      durationSeconds: 300,
    });
    assert.deepEqual(
      body.evidence.map((e) => [
        e.id,
        e.practiceActivity,
        e.analysisStatus,
        e.analysis,
        e.hasImage,
      ]),
      [
        [created.evidenceIds[0], 'Wrist PA', ANALYSIS_STATUS.notAnalysed, null, true],
        [created.evidenceIds[1], 'Wrist lateral', ANALYSIS_STATUS.rejected, 'Rotated.', false],
      ],
    );
    assert.deepEqual(body.evidence[0]?.evidenceData, XRAY_DATA);
    assert.equal(body.evidence[0]?.userEmail, learner.email);
  });

  test('educators of the organisation and global viewers read it, not as owners', async () => {
    const created = await createReport(t.db, { userId: learner.sub, reportDetails: null });
    const asEducator = await report(educator.sub, created.uuid);
    assert.equal(asEducator.status, 200);
    assert.equal(asEducator.body.isOwner, false);
    assert.equal(asEducator.body.reportDetails, null);
    const asAdmin = await report(sysadmin.sub, created.uuid);
    assert.equal(asAdmin.status, 200);
    assert.equal(asAdmin.body.isOwner, false);
  });

  test("another user's report, a running session and an unknown id are not found", async () => {
    const created = await createReport(t.db, { userId: learner.sub });
    assert.equal((await report(otherLearner.sub, created.uuid)).status, 404);
    const peer = await createReport(t.db, { userId: educator.sub });
    // A learner of the same organisation lacks view_org_reports.
    assert.equal((await report(learner.sub, peer.uuid)).status, 404);
    const running = await createReport(t.db, { userId: learner.sub, status: 'in_progress' });
    assert.equal((await report(learner.sub, running.uuid)).status, 404);
    const unknown = await report(learner.sub, '00000000-0000-4000-8000-000000000000');
    assert.deepEqual(unknown, { status: 404, body: { detail: 'Not found.' } });
    const malformed = await get<Record<string, string[]>>(learner.sub, '/api/v1/report/not-a-uuid');
    assert.equal(malformed.status, 400);
    assert.ok(malformed.body.reportId);
  });

  test('an image URL is signed, short-lived and serves the stored image without a token', async () => {
    const created = await createReport(t.db, {
      userId: learner.sub,
      storage: t.app.storage,
      evidence: [{ image: true }, {}],
    });
    const [withImage, withoutImage] = created.evidenceIds;
    const { status, body } = await get<ImageUrl>(
      learner.sub,
      `/api/v1/report/${created.uuid}/image/${withImage}`,
    );
    assert.equal(status, 200);
    assert.equal(body.id, withImage);
    const url = new URL(body.url, 'http://api.test');
    assert.ok(url.pathname.startsWith('/api/v1/storage/'));
    const expires = Number(url.searchParams.get('expires'));
    assert.ok(expires * 1000 > Date.now() && expires * 1000 <= Date.now() + 301_000);
    const image = await t.app.inject({ url: body.url });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.deepEqual(image.rawPayload, PNG_1X1);

    assert.equal(
      (await get(educator.sub, `/api/v1/report/${created.uuid}/image/${withImage}`)).status,
      200,
    );
    assert.equal(
      (await get(otherLearner.sub, `/api/v1/report/${created.uuid}/image/${withImage}`)).status,
      404,
    );
    assert.equal(
      (await get(learner.sub, `/api/v1/report/${created.uuid}/image/${withoutImage}`)).status,
      404,
    );
    const elsewhere = await createReport(t.db, {
      userId: learner.sub,
      storage: t.app.storage,
      evidence: [{ image: true }],
    });
    assert.equal(
      (await get(learner.sub, `/api/v1/report/${created.uuid}/image/${elsewhere.evidenceIds[0]}`))
        .status,
      404,
    );
  });

  test('image URLs in a batch: only ids of that report, all or nothing', async () => {
    const created = await createReport(t.db, {
      userId: learner.sub,
      storage: t.app.storage,
      evidence: [{ image: true }, { image: true }, {}],
    });
    const [a, b, noImage] = created.evidenceIds;
    const both = await get<ImageUrl[]>(
      learner.sub,
      `/api/v1/report/${created.uuid}/image?id=${b}&id=${a}`,
    );
    assert.equal(both.status, 200);
    assert.deepEqual(
      both.body.map((i) => i.id),
      [a, b],
    );
    for (const item of both.body)
      assert.equal((await t.app.inject({ url: item.url })).statusCode, 200);

    const single = await get<ImageUrl[]>(
      learner.sub,
      `/api/v1/report/${created.uuid}/image?id=${a}`,
    );
    assert.deepEqual(
      single.body.map((i) => i.id),
      [a],
    );

    const other = await createReport(t.db, {
      userId: learner.sub,
      storage: t.app.storage,
      evidence: [{ image: true }],
    });
    assert.equal(
      (
        await get(
          learner.sub,
          `/api/v1/report/${created.uuid}/image?id=${a}&id=${other.evidenceIds[0]}`,
        )
      ).status,
      404,
    );
    assert.equal(
      (await get(learner.sub, `/api/v1/report/${created.uuid}/image?id=${a}&id=${noImage}`)).status,
      404,
    );
    assert.equal(
      (await get(learner.sub, `/api/v1/report/${created.uuid}/image?id=999999`)).status,
      404,
    );
    assert.equal(
      (await get(otherLearner.sub, `/api/v1/report/${created.uuid}/image?id=${a}`)).status,
      404,
    );
    const missing = await get<Record<string, string[]>>(
      learner.sub,
      `/api/v1/report/${created.uuid}/image`,
    );
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { id: ['This field is required.'] });
    assert.equal(
      (await get(learner.sub, `/api/v1/report/${created.uuid}/image?id=abc`)).status,
      400,
    );
  });
});
