import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ANALYSIS_STATUS,
  INVALID_PAGE,
  PERMISSION_DENIED,
  type LearnerReportRow,
  type PagedResult,
  type ReportRow,
} from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import { createReport, deleteAllReports } from '../../../../factories/reports';

const { accepted, rejected } = ANALYSIS_STATUS;

describe('report lists', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const educator = account('educator', 'Demo Hospital');
  const sysadmin = account('sys admin');
  const otherLearner = account('learner', 'Other College');
  /** An educator of Other College, so organisation scoping is checked in both directions. */
  const otherEducatorId = '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0f01';

  const get = async <T>(sub: string, url: string) => {
    const res = await t.app.inject({ url, headers: await authHeader(sub) });
    return { status: res.statusCode, body: res.json<T>() };
  };

  before(async () => {
    t = await buildTestApp();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'educator@other.test', 'Erika', 'Ausbilderin',
               (select id from organisations where name = 'Other College'),
               (select id from roles where name = 'educator'))`,
      [otherEducatorId],
    );
  });
  after(() => t.close());
  beforeEach(() => deleteAllReports(t.db));

  test('a learner lists only their own ended sessions, newest first, with summaries', async () => {
    const t0 = Date.UTC(2026, 2, 1, 9, 0, 0);
    const none = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: 'Knee',
      completedAt: new Date(t0),
      evidence: [{}, {}],
    });
    const partial = await createReport(t.db, {
      userId: learner.sub,
      product: 'birthing',
      category: 'Kneeling',
      status: 'closed',
      completedAt: new Date(t0 + 60_000),
      reportDetails: null,
      evidence: [{ analysisStatus: accepted, analysis: 'Good.' }, {}],
    });
    const completed = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: null,
      configuration: 'radiography.free-play',
      completedAt: new Date(t0 + 120_000),
      evidence: [
        { analysisStatus: accepted, analysis: 'ok' },
        { analysisStatus: rejected, analysis: 'no' },
      ],
    });
    // Not reports: still running, or someone else's.
    await createReport(t.db, { userId: learner.sub, status: 'in_progress' });
    await createReport(t.db, { userId: learner.sub, status: 'not_started' });
    await createReport(t.db, { userId: educator.sub, evidence: [{}] });

    const { status, body } = await get<PagedResult<ReportRow>>(learner.sub, '/api/v1/report');
    assert.equal(status, 200);
    assert.equal(body.count, 3);
    assert.equal(body.totalPages, 1);
    assert.deepEqual(body.results, [
      {
        id: completed.id,
        uuid: completed.uuid,
        simulation: 'Radiography',
        session: 'radiography.free-play',
        recorded: new Date(t0 + 120_000).toISOString(),
        analysisStatusSummary: 'completed',
        hasReportDetails: true,
      },
      {
        id: partial.id,
        uuid: partial.uuid,
        simulation: 'Birthing',
        session: 'Kneeling',
        recorded: new Date(t0 + 60_000).toISOString(),
        analysisStatusSummary: 'partial',
        hasReportDetails: false,
      },
      {
        id: none.id,
        uuid: none.uuid,
        simulation: 'Radiography',
        session: 'Knee',
        recorded: new Date(t0).toISOString(),
        analysisStatusSummary: 'not_started',
        hasReportDetails: true,
      },
    ]);
  });

  test('a report without evidence has not_started as its summary', async () => {
    await createReport(t.db, { userId: learner.sub, evidence: [] });
    const { body } = await get<PagedResult<ReportRow>>(learner.sub, '/api/v1/report');
    assert.equal(body.results[0]?.analysisStatusSummary, 'not_started');
  });

  test('pages, ordering and filter follow the list conventions', async () => {
    for (let i = 0; i < 23; i += 1) {
      await createReport(t.db, {
        userId: learner.sub,
        product: i % 2 === 0 ? 'radiography' : 'birthing',
        category: i % 2 === 0 ? 'Hand' : 'All fours',
        completedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000),
      });
    }
    const first = await get<PagedResult<ReportRow>>(learner.sub, '/api/v1/report');
    assert.equal(first.body.count, 23);
    assert.equal(first.body.totalPages, 2);
    assert.equal(first.body.results.length, 20);
    const ids = first.body.results.map((r) => r.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );

    const second = await get<PagedResult<ReportRow>>(learner.sub, '/api/v1/report?page=2');
    assert.equal(second.body.results.length, 3);
    assert.ok(second.body.results.every((r) => !ids.includes(r.id)));

    const beyond = await get(learner.sub, '/api/v1/report?page=3');
    assert.equal(beyond.status, 404);
    assert.deepEqual(beyond.body, { detail: INVALID_PAGE });

    const oldest = await get<PagedResult<ReportRow>>(
      learner.sub,
      '/api/v1/report?ordering=recorded&pageSize=1',
    );
    assert.equal(oldest.body.results[0]?.recorded, new Date(Date.UTC(2026, 0, 1)).toISOString());
    const bySimulation = await get<PagedResult<ReportRow>>(
      learner.sub,
      '/api/v1/report?ordering=simulation&pageSize=100',
    );
    assert.deepEqual(
      [...new Set(bySimulation.body.results.map((r) => r.simulation))],
      ['Birthing', 'Radiography'],
    );
    const bySession = await get<PagedResult<ReportRow>>(
      learner.sub,
      '/api/v1/report?ordering=-session&pageSize=1',
    );
    assert.equal(bySession.body.results[0]?.session, 'Hand');

    const filtered = await get<PagedResult<ReportRow>>(
      learner.sub,
      '/api/v1/report?filter=ALL%20FOURS',
    );
    assert.equal(filtered.body.count, 11);
    assert.ok(filtered.body.results.every((r) => r.session === 'All fours'));
    const bySimulationName = await get<PagedResult<ReportRow>>(
      learner.sub,
      '/api/v1/report?filter=radiog',
    );
    assert.equal(bySimulationName.body.count, 12);
    // Wildcards are literal, and an empty result is page 1 of 1.
    const nothing = await get<PagedResult<ReportRow>>(learner.sub, '/api/v1/report?filter=%25');
    assert.deepEqual(nothing.body, { count: 0, totalPages: 1, results: [] });

    const badOrdering = await get<Record<string, string[]>>(
      learner.sub,
      '/api/v1/report?ordering=-secret',
    );
    assert.equal(badOrdering.status, 400);
    assert.ok(badOrdering.body.ordering?.[0]?.includes('secret'));
  });

  test('an empty list is one empty page; page 2 of it is invalid', async () => {
    const empty = await get(learner.sub, '/api/v1/report');
    assert.deepEqual(empty.body, { count: 0, totalPages: 1, results: [] });
    const page2 = await get(learner.sub, '/api/v1/report?page=2');
    assert.equal(page2.status, 404);
    assert.deepEqual(page2.body, { detail: INVALID_PAGE });
  });

  test('counts follow sessions that end, close or are deleted', async () => {
    const running = await createReport(t.db, { userId: learner.sub, status: 'in_progress' });
    await createReport(t.db, { userId: learner.sub });
    const count = async () =>
      (await get<PagedResult<ReportRow>>(learner.sub, '/api/v1/report')).body.count;
    assert.equal(await count(), 1);
    await t.db.query(
      `update simulation_sessions set status = 'complete', completed_at = now() where uuid = $1`,
      [running.uuid],
    );
    assert.equal(await count(), 2);
    await t.db.query(
      `update simulation_sessions set status = 'closed', closed_at = now() where uuid = $1`,
      [running.uuid],
    );
    assert.equal(await count(), 2);
    await t.db.query('delete from simulation_sessions where uuid = $1', [running.uuid]);
    assert.equal(await count(), 1);
    // The counter must agree with the rows it stands for.
    const check = await t.db.query<{ counted: number; actual: number }>(
      `select coalesce((select sum(reports) from report_counts), 0)::int as counted,
              (select count(*) from simulation_sessions where status in ('complete', 'closed'))::int as actual`,
    );
    assert.equal(check.rows[0]?.counted, check.rows[0]?.actual);
  });

  test('a report given to another learner is counted for them, not twice', async () => {
    const moved = await createReport(t.db, { userId: learner.sub });
    await createReport(t.db, { userId: learner.sub, status: 'in_progress' });
    const count = async (sub: string) =>
      (await get<PagedResult<ReportRow>>(sub, '/api/v1/report')).body.count;
    assert.equal(await count(learner.sub), 1);
    assert.equal(await count(otherLearner.sub), 0);
    // Only the owner changes: the counters follow user_id as they follow status.
    await t.db.query('update simulation_sessions set user_id = $2 where uuid = $1', [
      moved.uuid,
      otherLearner.sub,
    ]);
    assert.equal(await count(learner.sub), 0);
    assert.equal(await count(otherLearner.sub), 1);
    // An update of columns the counters do not read leaves them as they are.
    await t.db.query('update simulation_sessions set last_used_at = now(), sort_analysis = 1');
    assert.equal(await count(otherLearner.sub), 1);
    const check = await t.db.query<{ counted: number; actual: number }>(
      `select coalesce((select sum(reports) from report_counts), 0)::int as counted,
              (select count(*) from simulation_sessions where status in ('complete', 'closed'))::int as actual`,
    );
    assert.equal(check.rows[0]?.counted, check.rows[0]?.actual);
  });

  test('a learner without view_org_reports may not list learner reports', async () => {
    const res = await get(learner.sub, '/api/v1/report/learner');
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { detail: PERMISSION_DENIED });
    assert.equal((await t.app.inject({ url: '/api/v1/report/learner' })).statusCode, 401);
  });

  test("educators see their own organisation's reports only, in both directions", async () => {
    const mine = await createReport(t.db, { userId: learner.sub, evidence: [{}] });
    const colleague = await createReport(t.db, { userId: educator.sub });
    const foreign = await createReport(t.db, {
      userId: otherLearner.sub,
      evidence: [{ analysisStatus: accepted, analysis: 'x' }],
    });

    const demo = await get<PagedResult<LearnerReportRow>>(educator.sub, '/api/v1/report/learner');
    assert.equal(demo.status, 200);
    assert.deepEqual(
      demo.body.results.map((r) => r.uuid).sort(),
      [mine.uuid, colleague.uuid].sort(),
    );
    const row = demo.body.results.find((r) => r.uuid === mine.uuid);
    assert.equal(row?.user, `${learner.firstName} ${learner.lastName}`);

    const other = await get<PagedResult<LearnerReportRow>>(
      otherEducatorId,
      '/api/v1/report/learner',
    );
    assert.deepEqual(
      other.body.results.map((r) => r.uuid),
      [foreign.uuid],
    );
    assert.equal(other.body.results[0]?.user, `${otherLearner.firstName} ${otherLearner.lastName}`);
    assert.equal(other.body.results[0]?.analysisStatusSummary, 'completed');
    assert.equal(other.body.count, 1);

    const all = await get<PagedResult<LearnerReportRow>>(sysadmin.sub, '/api/v1/report/learner');
    assert.equal(all.body.count, 3);
  });

  test('the learner list filter also matches the learner name and e-mail', async () => {
    await createReport(t.db, { userId: learner.sub, product: 'radiography', category: 'Knee' });
    await createReport(t.db, { userId: educator.sub, product: 'radiography', category: 'Knee' });
    await createReport(t.db, {
      userId: otherLearner.sub,
      product: 'radiography',
      category: 'Knee',
    });
    const byName = await get<PagedResult<LearnerReportRow>>(
      educator.sub,
      `/api/v1/report/learner?filter=${learner.firstName.toUpperCase()}`,
    );
    assert.deepEqual(
      byName.body.results.map((r) => r.user),
      [`${learner.firstName} ${learner.lastName}`],
    );
    const byFullName = await get<PagedResult<LearnerReportRow>>(
      educator.sub,
      `/api/v1/report/learner?filter=${encodeURIComponent(`${educator.firstName} ${educator.lastName}`)}`,
    );
    assert.equal(byFullName.body.count, 1);
    const byEmail = await get<PagedResult<LearnerReportRow>>(
      sysadmin.sub,
      '/api/v1/report/learner?filter=other.test',
    );
    assert.equal(byEmail.body.count, 1);
    const bySession = await get<PagedResult<LearnerReportRow>>(
      educator.sub,
      '/api/v1/report/learner?filter=knee',
    );
    assert.equal(bySession.body.count, 2);
    const byUser = await get<PagedResult<LearnerReportRow>>(
      sysadmin.sub,
      '/api/v1/report/learner?ordering=user',
    );
    const users = byUser.body.results.map((r) => r.user.toLowerCase());
    assert.deepEqual(users, [...users].sort());
    // The own list does not search names: every report there is the caller's.
    const own = await get<PagedResult<ReportRow>>(
      learner.sub,
      `/api/v1/report?filter=${learner.email}`,
    );
    assert.equal(own.body.count, 0);
  });
  describe('learnerId: one learner by id (the insight screen\'s "Reports of …" link)', () => {
    /** A learner of Demo Hospital whose name starts with the other's, which a text search also finds. */
    const namesakeId = '6f1c2a52-0d5e-4b8e-9a47-1b2f6a7c0f02';
    before(async () => {
      await t.db.query(
        `insert into users (id, email, first_name, last_name, organisation_id, role_id)
         values ($1, 'namesake@demo.test', $2, $3,
                 (select id from organisations where name = 'Demo Hospital'),
                 (select id from roles where name = 'learner'))
         on conflict (id) do nothing`,
        [namesakeId, learner.firstName, `${learner.lastName}2`],
      );
    });

    const listOf = (sub: string, query: string) =>
      get<PagedResult<LearnerReportRow>>(sub, `/api/v1/report/learner?${query}`);

    test('lists exactly that learner, where the name search also finds the namesake', async () => {
      const first = await createReport(t.db, { userId: learner.sub, category: 'Knee' });
      const second = await createReport(t.db, { userId: learner.sub, category: 'Skull' });
      await createReport(t.db, { userId: namesakeId, category: 'Knee' });
      await createReport(t.db, { userId: educator.sub, category: 'Knee' });
      const name = `${learner.firstName} ${learner.lastName}`;

      const byName = await listOf(educator.sub, `filter=${encodeURIComponent(name)}`);
      assert.equal(byName.body.count, 3, 'the text search finds the namesake too');
      assert.ok(byName.body.results.some((r) => r.user === `${name}2`));

      const byId = await listOf(educator.sub, `learnerId=${learner.sub}`);
      assert.equal(byId.status, 200);
      assert.equal(byId.body.count, 2);
      assert.equal(byId.body.totalPages, 1);
      assert.deepEqual(
        byId.body.results.map((r) => r.uuid),
        [second.uuid, first.uuid],
      );
      assert.ok(byId.body.results.every((r) => r.user === name));

      // With a text search too: both apply, and the count agrees with the rows.
      const both = await listOf(educator.sub, `learnerId=${learner.sub}&filter=skull`);
      assert.deepEqual(
        both.body.results.map((r) => r.uuid),
        [second.uuid],
      );
      assert.equal(both.body.count, 1);
      const byNameAndId = await listOf(
        educator.sub,
        `learnerId=${learner.sub}&filter=${encodeURIComponent(name)}`,
      );
      assert.equal(byNameAndId.body.count, 2, 'a name arm is counted within the learner too');
      const paged = await listOf(educator.sub, `learnerId=${learner.sub}&pageSize=1&page=2`);
      assert.deepEqual(
        paged.body.results.map((r) => r.uuid),
        [first.uuid],
      );
      assert.equal(paged.body.totalPages, 2);
    });

    test("another organisation's learner lists nothing, never their rows", async () => {
      await createReport(t.db, { userId: learner.sub });
      const foreign = await createReport(t.db, { userId: otherLearner.sub, category: 'Knee' });

      for (const query of [
        `learnerId=${otherLearner.sub}`,
        `learnerId=${otherLearner.sub}&filter=knee`,
        `learnerId=${otherLearner.sub}&filter=${encodeURIComponent(otherLearner.firstName)}`,
      ]) {
        const res = await listOf(educator.sub, query);
        assert.equal(res.status, 200, query);
        assert.deepEqual(res.body, { count: 0, totalPages: 1, results: [] }, query);
      }
      // And the other way round: Other College's educator does not see Demo Hospital's learner.
      const reverse = await listOf(otherEducatorId, `learnerId=${learner.sub}`);
      assert.equal(reverse.body.count, 0);
      assert.deepEqual(reverse.body.results, []);
      // Someone who sees every report does get the learner of any organisation.
      const all = await listOf(sysadmin.sub, `learnerId=${otherLearner.sub}`);
      assert.deepEqual(
        all.body.results.map((r) => r.uuid),
        [foreign.uuid],
      );
      // An unknown id is the same empty list.
      const unknown = await listOf(
        educator.sub,
        `learnerId=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      );
      assert.equal(unknown.body.count, 0);
    });

    test('a learnerId that is no uuid is a 400 naming the field', async () => {
      for (const bad of ['42', 'lena', `${learner.sub}x`, "' or 1=1 --"]) {
        const res = await listOf(educator.sub, `learnerId=${encodeURIComponent(bad)}`);
        assert.equal(res.status, 400, bad);
        const body = res.body as unknown as Record<string, string[]>;
        assert.deepEqual(Object.keys(body), ['learnerId'], JSON.stringify(body));
        assert.ok(body.learnerId?.[0], JSON.stringify(body));
      }
      // The own list takes no learner: the key is dropped (as every unknown query key is), so a
      // learner cannot use it to reach anyone else's reports.
      await createReport(t.db, { userId: educator.sub });
      const own = await get<PagedResult<ReportRow>>(
        learner.sub,
        `/api/v1/report?learnerId=${educator.sub}`,
      );
      assert.equal(own.status, 200);
      assert.equal(own.body.count, 0);
    });
  });
});
