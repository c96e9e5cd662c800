import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ANALYSIS_STATUS,
  EvidenceSubmission,
  type ImageUrl,
  type Insight,
  type LearnerReportRow,
  type LicenseBlock,
  type PagedResult,
  type Report,
  type ReportRow,
} from '@portal/contract';
import { DEMO_COHORT } from '@portal/contract/demo-accounts';
import { BODY_AREAS, bodyAreaFor, lessonFor } from '@portal/xray';
import { Value } from '@sinclair/typebox/value';
import { CATALOGUE, configurationOf } from '../../src/demo/catalogue';
import {
  DEMO_ACTIVITY_DAYS,
  DEMO_ACTIVITY_REPORTS,
  PILOT_LICENCE,
  seedDemoActivity,
} from '../../src/demo/demo-activity';
import { account, authHeader, buildTestApp, type TestApp } from '../helper';

const DAY_MS = 86_400_000;

describe('demo activity (SEED_DEMO_ACTIVITY)', () => {
  let t: TestApp;
  const educator = account('educator', 'Demo Hospital');
  const orgAdmin = account('org admin', 'Demo Hospital');
  const otherLearner = account('learner', 'Other College');

  const get = async <T>(sub: string, url: string) => {
    const res = await t.app.inject({ url, headers: await authHeader(sub) });
    return { status: res.statusCode, body: res.json<T>() };
  };
  const count = async (sql: string, params: unknown[] = []) =>
    (await t.db.query<{ n: number }>(sql, params)).rows[0]?.n ?? -1;

  before(async () => {
    t = await buildTestApp({ seedDemoActivity: true });
    await t.app.ready();
    const result = await t.app.demoActivity;
    assert.equal(result?.seeded, true);
  });
  after(() => t.close());

  test('Demo Hospital has 40+ learners, Other College its own, all seated on current licences', async () => {
    const learners = async (organisation: string) =>
      count(
        `select count(*)::int as n from users u join roles r on r.id = u.role_id
           join organisations o on o.id = u.organisation_id
          where r.name = 'learner' and o.name = $1`,
        [organisation],
      );
    assert.ok((await learners('Demo Hospital')) >= 40);
    assert.ok((await learners('Other College')) >= 12);
    const unseated = await count(
      `select count(*)::int as n from users u where u.id = any($1::uuid[])
         and not exists (select 1 from license_block_users s join license_blocks lb
                           on lb.id = s.license_block_id
                          where s.user_id = u.id and lb.expiry_date >= current_date)`,
      [DEMO_COHORT.map((a) => a.sub)],
    );
    assert.equal(unseated, 0);
  });

  test('Demo Hospital has two current licences, one of them expiring within 30 days (through the licence route)', async () => {
    const org = await t.db.query<{ id: number }>(
      "select id from organisations where name = 'Demo Hospital'",
    );
    const { status, body } = await get<PagedResult<LicenseBlock>>(
      orgAdmin.sub,
      `/api/v1/organisation/${org.rows[0]?.id}/license-block?pageSize=100`,
    );
    assert.equal(status, 200);
    const current = body.results.filter((l) => l.isCurrent);
    assert.equal(
      current.length,
      2,
      JSON.stringify(body.results.map((l) => [l.licenseName, l.expiryDate])),
    );
    const soon = current.filter((l) => new Date(l.expiryDate).getTime() - Date.now() < 30 * DAY_MS);
    assert.deepEqual(
      soon.map((l) => l.licenseName),
      [PILOT_LICENCE.licenseName],
    );
    assert.equal(soon[0]?.seatsUsed, PILOT_LICENCE.seats);
    const main = current.find((l) => l.licenseName === 'Demo Hospital 2026');
    assert.ok(main && main.seatsUsed >= 40 && main.seatsUsed <= main.numberOfSeats);
  });

  test('about 300 reports, spread over the last 90 days, recent days busier, none in the future', async () => {
    const rows = (
      await t.db.query<{ recorded: Date; status: string; user_id: string }>(
        `select coalesce(completed_at, closed_at) as recorded, status, user_id
           from simulation_sessions where user_id = any($1::uuid[])`,
        [DEMO_COHORT.map((a) => a.sub)],
      )
    ).rows;
    assert.equal(rows.length, DEMO_ACTIVITY_REPORTS);
    const ages = rows.map((r) => (Date.now() - new Date(r.recorded).getTime()) / DAY_MS);
    assert.ok(ages.every((age) => age > 0 && age < DEMO_ACTIVITY_DAYS + 1));
    assert.ok(
      Math.max(...ages) > 75 && Math.min(...ages) < 3,
      `${Math.min(...ages)}–${Math.max(...ages)}`,
    );
    const lastMonth = ages.filter((a) => a < 30).length;
    const firstMonth = ages.filter((a) => a >= 60).length;
    assert.ok(lastMonth > firstMonth, `${lastMonth} vs ${firstMonth}`);
    assert.ok(rows.every((r) => r.status === 'complete' || r.status === 'closed'));
    assert.ok(rows.some((r) => r.status === 'closed'));
    assert.ok(new Set(rows.map((r) => r.user_id)).size >= 40, 'most learners have reports');
  });

  test('evidence is what the simulator submits: 1–5 items, valid submissions, images of the leaf, some analysed', async () => {
    const evidence = (
      await t.db.query<{
        session_uuid: string;
        configuration: string;
        practice_activity: string;
        evidence_data: EvidenceSubmission['evidenceData'];
        has_image: boolean;
        analysis_status_id: number;
      }>(
        `select e.session_uuid, s.configuration, e.practice_activity, e.evidence_data,
                e.image_file_id is not null as has_image, e.analysis_status_id
           from evidence e join simulation_sessions s on s.uuid = e.session_uuid
          where s.user_id = any($1::uuid[])`,
        [DEMO_COHORT.map((a) => a.sub)],
      )
    ).rows;
    const perSession = new Map<string, number>();
    for (const e of evidence)
      perSession.set(e.session_uuid, (perSession.get(e.session_uuid) ?? 0) + 1);
    assert.equal(perSession.size, DEMO_ACTIVITY_REPORTS);
    assert.ok([...perSession.values()].every((n) => n >= 1 && n <= 5));
    for (const e of evidence) {
      const submission = { practiceActivity: e.practice_activity, evidenceData: e.evidence_data };
      assert.ok(Value.Check(EvidenceSubmission, submission), JSON.stringify(submission));
      if (lessonFor(e.configuration)) {
        assert.equal(e.evidence_data.meta.type, 'rs_lesson_part');
      } else {
        assert.equal(e.has_image, true);
        assert.equal(e.evidence_data.settings.bodyArea, bodyAreaFor(e.configuration, null).key);
      }
    }
    const statuses = new Set(evidence.map((e) => e.analysis_status_id));
    assert.ok(
      statuses.has(ANALYSIS_STATUS.accepted) &&
        statuses.has(ANALYSIS_STATUS.rejected) &&
        statuses.has(ANALYSIS_STATUS.notAnalysed),
    );
    assert.ok(evidence.filter((e) => e.has_image).length >= 500);
  });

  test("Demo Hospital's educator sees the cohort's reports through the learner reports route, with images served as PNG", async () => {
    const list = await get<PagedResult<LearnerReportRow>>(
      educator.sub,
      '/api/v1/report/learner?pageSize=100',
    );
    assert.equal(list.status, 200);
    assert.ok(list.body.count >= 200, `${list.body.count} reports`);
    const names = new Set(list.body.results.map((r) => r.user));
    assert.ok(names.size >= 15, `${names.size} learners on the first page`);
    assert.ok(list.body.results.some((r) => r.analysisStatusSummary === 'completed'));

    const withImages = list.body.results.find((r) => r.simulation === 'Radiography');
    assert.ok(withImages);
    const report = await get<Report>(educator.sub, `/api/v1/report/${withImages.uuid}`);
    assert.equal(report.status, 200);
    assert.ok(
      report.body.reportDetails === null || /image/.test(report.body.reportDetails.summary),
    );
    const item = report.body.evidence.find((e) => e.hasImage);
    assert.ok(item);
    const signed = await get<ImageUrl>(
      educator.sub,
      `/api/v1/report/${withImages.uuid}/image/${item.id}`,
    );
    assert.equal(signed.status, 200);
    const image = await t.app.inject({ url: signed.body.url });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    const png = image.rawPayload;
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [512, 512], 'IHDR: 512×512');
    assert.ok(png.length > 5_000, `${png.length} bytes`);
  });

  test("the demo educator's insight looks alive: marked weeks, learners and projections", async () => {
    const org = await count(`select id as n from organisations where name = 'Demo Hospital'`);
    const res = await get<Insight>(educator.sub, `/api/v1/organisation/${org}/insight`);
    assert.equal(res.status, 200);
    const { weeks, projections, learners, totals } = res.body;
    assert.ok(weeks.filter((w) => w.sessions > 0).length >= 10, JSON.stringify(weeks));
    assert.ok(totals.images > 200 && totals.meanMark !== null, JSON.stringify(totals));
    const marked = projections.filter(
      (p) => p.meanMark !== null && p.rejectRate !== null && p.medianDoseToDrl !== null,
    );
    assert.ok(marked.length >= 4, JSON.stringify(projections));
    // A realistic spread: some repeats and rejects, doses either side of the reference level.
    assert.ok(projections.some((p) => p.repeatRate > 0));
    assert.ok(marked.some((p) => p.rejectRate! > 0));
    assert.ok(marked.some((p) => p.p75DoseToDrl! > p.medianDoseToDrl!));
    assert.ok(learners.length >= 20);
    assert.ok(learners.filter((l) => l.firstToLastChange !== null).length >= 10);
  });

  test("learner@other.test sees none of Demo Hospital's reports", async () => {
    const own = await get<PagedResult<ReportRow>>(otherLearner.sub, '/api/v1/report?pageSize=100');
    assert.equal(own.status, 200);
    const demoUuids = (
      await t.db.query<{ uuid: string }>(
        `select s.uuid from simulation_sessions s join users u on u.id = s.user_id
           join organisations o on o.id = u.organisation_id where o.name = 'Demo Hospital'`,
      )
    ).rows.map((r) => r.uuid);
    assert.ok(demoUuids.length > 200);
    assert.ok(own.body.results.every((r) => !demoUuids.includes(r.uuid)));
    assert.equal((await get(otherLearner.sub, '/api/v1/report/learner')).status, 403);
    for (const uuid of demoUuids.slice(0, 5)) {
      assert.equal((await get(otherLearner.sub, `/api/v1/report/${uuid}`)).status, 404);
    }
  });

  test('a second run adds nothing, even after an administrator deleted a seeded learner', async () => {
    const before = await count('select count(*)::int as n from simulation_sessions');
    const files = await count('select count(*)::int as n from files');
    const gone = DEMO_COHORT[0]!;
    await t.db.query('delete from users where id = $1', [gone.sub]);
    const afterDelete = await count('select count(*)::int as n from simulation_sessions');
    const again = await seedDemoActivity(t.db, t.app.storage);
    assert.equal(again.seeded, false);
    assert.equal(await count('select count(*)::int as n from simulation_sessions'), afterDelete);
    assert.ok(afterDelete <= before);
    assert.ok((await count('select count(*)::int as n from files')) <= files);
    assert.equal(await count('select count(*)::int as n from users where id = $1', [gone.sub]), 0);
  });

  test('every leaf of the seeded catalogue maps to an X-ray body area or a lesson', () => {
    for (const product of CATALOGUE) {
      const leaves = product.categories
        ? product.categories.flatMap((c) =>
            c.leaves.map((l) => ({
              configuration: configurationOf(product.code, c.slug, l.slug),
              name: l.displayName,
            })),
          )
        : (product.leaves ?? []).map((l) => ({
            configuration: configurationOf(product.code, l.slug),
            name: l.displayName,
          }));
      for (const leaf of leaves) {
        const area = bodyAreaFor(leaf.configuration, leaf.name);
        assert.ok(area.key in BODY_AREAS || lessonFor(leaf.configuration), leaf.configuration);
      }
    }
  });
});

describe('demo activity after an interrupted start', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('a start stopped half-way is resumed by a later one once its claim is stale, without duplicates', async () => {
    const abort = new AbortController();
    const first = await seedDemoActivity(t.db, t.app.storage, {
      signal: abort.signal,
      onProgress: (done) => {
        if (done >= 50) abort.abort();
      },
    });
    assert.equal(first.seeded, false);
    assert.equal(first.reports, 50);
    // Another start meanwhile leaves it alone: the claim is fresh.
    assert.equal((await seedDemoActivity(t.db, t.app.storage)).seeded, false);
    await t.db.query("update demo_seeds set claimed_at = now() - interval '1 hour'");
    const resumed = await seedDemoActivity(t.db, t.app.storage);
    assert.equal(resumed.seeded, true);
    assert.equal(resumed.reports, DEMO_ACTIVITY_REPORTS - 50);
    const sessions = (
      await t.db.query<{ n: number; open: number }>(
        `select count(*)::int as n, count(*) filter (where status not in ('complete', 'closed'))::int as open
           from simulation_sessions where user_id = any($1::uuid[])`,
        [DEMO_COHORT.map((a) => a.sub)],
      )
    ).rows[0];
    assert.deepEqual(sessions, { n: DEMO_ACTIVITY_REPORTS, open: 0 });
    const orphanFiles = await t.db.query(
      `select 1 from files f where f.kind = 'evidence-image'
         and not exists (select 1 from evidence e where e.image_file_id = f.id)`,
    );
    assert.equal(orphanFiles.rows.length, 0);
  });
});
