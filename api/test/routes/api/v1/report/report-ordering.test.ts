import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ANALYSIS_STATUS,
  type AnalysisStatusSummary,
  type LearnerReportRow,
  type PagedResult,
} from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { createReport, deleteAllReports } from '../../../../factories/reports';

const { accepted, rejected } = ANALYSIS_STATUS;

/**
 * The report lists order and scope by keys each report carries (migration 0012), kept by triggers:
 * these tests change the source rows (names, organisation, analyses) and expect the lists to follow.
 */
describe('report list orderings and scope at scale', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const educator = account('educator', 'Demo Hospital');
  const sysadmin = account('sys admin');
  const otherLearner = account('learner', 'Other College');

  const list = async (sub: string, query: string) => {
    const res = await t.app.inject({
      url: `/api/v1/report/learner?${query}`,
      headers: await authHeader(sub),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<PagedResult<LearnerReportRow>>();
  };

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(() => deleteAllReports(t.db));

  test('analysisStatusSummary orders not_started, partial, completed and follows new analyses', async () => {
    const none = await createReport(t.db, { userId: learner.sub, evidence: [{}, {}] });
    const partial = await createReport(t.db, {
      userId: learner.sub,
      evidence: [{ analysisStatus: accepted, analysis: 'Good.' }, {}],
    });
    const completed = await createReport(t.db, {
      userId: learner.sub,
      evidence: [{ analysisStatus: rejected, analysis: 'Blurred.' }],
    });
    const empty = await createReport(t.db, { userId: learner.sub, evidence: [] });

    const ascending = await list(educator.sub, 'ordering=analysisStatusSummary');
    const summaries = (page: PagedResult<LearnerReportRow>) =>
      page.results.map((r) => [r.id, r.analysisStatusSummary]);
    // Ties run in the ordering's direction by id.
    assert.deepEqual(summaries(ascending), [
      [none.id, 'not_started'],
      [empty.id, 'not_started'],
      [partial.id, 'partial'],
      [completed.id, 'completed'],
    ]);
    const descending = await list(educator.sub, 'ordering=-analysisStatusSummary');
    assert.deepEqual(summaries(descending), summaries(ascending).reverse());

    // The learner analyses the rest of the partial report: it is complete now.
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/report/${partial.uuid}/evidence/${partial.evidenceIds[1]}/analysis`,
      headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders() },
      payload: { analysisStatus: accepted, analysis: 'Fine too.' },
    });
    assert.equal(res.statusCode, 200, res.body);
    // An evidence item removed from the completed report leaves it without evidence.
    await t.db.query('delete from evidence where session_uuid = $1', [completed.uuid]);
    const after = await list(educator.sub, 'ordering=-analysisStatusSummary');
    assert.deepEqual(
      after.results.map((r): [number, AnalysisStatusSummary] => [r.id, r.analysisStatusSummary]),
      [
        [partial.id, 'completed'],
        [empty.id, 'not_started'],
        [completed.id, 'not_started'],
        [none.id, 'not_started'],
      ],
    );
  });

  test('orderings by name follow renamed users, products and categories', async () => {
    const knee = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: 'Knee',
    });
    const fours = await createReport(t.db, {
      userId: educator.sub,
      product: 'birthing',
      category: 'All fours',
    });
    const ids = async (ordering: string) =>
      (await list(sysadmin.sub, `ordering=${ordering}`)).results.map((r) => r.id);
    assert.deepEqual(await ids('simulation'), [fours.id, knee.id]);
    assert.deepEqual(await ids('session'), [fours.id, knee.id]);

    const names = await t.db.query<{ id: string; first_name: string; last_name: string }>(
      'select id, first_name, last_name from users where id = any($1::uuid[])',
      [[learner.sub, educator.sub]],
    );
    try {
      await t.db.query("update products set name = 'Aardvark scans' where code = 'radiography'");
      await t.db.query(
        `update product_categories set display_name = 'Zebra crossing'
          where id = (select category_id from simulation_sessions where uuid = $1)`,
        [fours.uuid],
      );
      await t.db.query(
        `update users set first_name = case id when $1::uuid then 'Aaron' else 'Zoe' end
          where id = any($2::uuid[])`,
        [learner.sub, [learner.sub, educator.sub]],
      );
      assert.deepEqual(await ids('simulation'), [knee.id, fours.id]);
      assert.deepEqual(await ids('-session'), [fours.id, knee.id]);
      assert.deepEqual(await ids('session'), [knee.id, fours.id]);
      assert.deepEqual(await ids('user'), [knee.id, fours.id]);
      const rows = (await list(sysadmin.sub, 'ordering=simulation')).results;
      assert.equal(rows[0]?.simulation, 'Aardvark scans');
      assert.equal(rows[1]?.session, 'Zebra crossing');
    } finally {
      await t.db.query("update products set name = 'Radiography' where code = 'radiography'");
      await t.db.query(
        `update product_categories set display_name = 'All fours'
          where id = (select category_id from simulation_sessions where uuid = $1)`,
        [fours.uuid],
      );
      for (const row of names.rows) {
        await t.db.query('update users set first_name = $2, last_name = $3 where id = $1', [
          row.id,
          row.first_name,
          row.last_name,
        ]);
      }
    }
    // Renamed back, the keys are back too.
    assert.deepEqual(await ids('simulation'), [fours.id, knee.id]);
    assert.deepEqual(await ids('session'), [fours.id, knee.id]);
  });

  test("a learner moved to another organisation takes their reports to that organisation's list", async () => {
    const report = await createReport(t.db, { userId: learner.sub });
    const otherEducator = await t.db.query<{ id: string }>(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values (gen_random_uuid(), 'educator-move@other.test', 'Erika', 'Ausbilderin',
               (select id from organisations where name = 'Other College'),
               (select id from roles where name = 'educator'))
       returning id`,
    );
    const otherEducatorId = otherEducator.rows[0]!.id;
    const organisationOf = async (sub: string) =>
      (
        await t.db.query<{ id: number }>('select organisation_id as id from users where id = $1', [
          sub,
        ])
      ).rows[0]!.id;
    const home = await organisationOf(learner.sub);
    try {
      assert.deepEqual(
        (await list(educator.sub, '')).results.map((r) => r.id),
        [report.id],
      );
      await t.db.query('update users set organisation_id = $2 where id = $1', [
        learner.sub,
        await organisationOf(otherLearner.sub),
      ]);
      const demo = await list(educator.sub, 'ordering=recorded');
      assert.deepEqual(demo, { count: 0, totalPages: 1, results: [] });
      const other = await list(otherEducatorId, 'ordering=-recorded');
      assert.deepEqual(
        other.results.map((r) => r.id),
        [report.id],
      );
      assert.equal(other.count, 1);
    } finally {
      await t.db.query('update users set organisation_id = $2 where id = $1', [learner.sub, home]);
      await t.db.query('delete from users where id = $1', [otherEducatorId]);
    }
  });

  test('pages of every ordering are disjoint, complete and in order in both directions', async () => {
    const products = ['radiography', 'birthing', 'radiation-safety'];
    for (let i = 0; i < 17; i += 1) {
      await createReport(t.db, {
        userId: [learner.sub, educator.sub, otherLearner.sub][i % 3]!,
        product: products[i % products.length],
        completedAt: new Date(Date.UTC(2026, 0, 1) + (i % 5) * 3_600_000),
        evidence: i % 4 === 0 ? [{ analysisStatus: accepted, analysis: 'ok' }] : [{}],
      });
    }
    const key: Record<string, (r: LearnerReportRow) => string | number> = {
      simulation: (r) => r.simulation.toLowerCase(),
      session: (r) => r.session.toLowerCase(),
      user: (r) => r.user.toLowerCase(),
      recorded: (r) => r.recorded,
      analysisStatusSummary: (r) =>
        ['not_started', 'partial', 'completed'].indexOf(r.analysisStatusSummary),
    };
    for (const [field, of] of Object.entries(key)) {
      for (const descending of [false, true]) {
        const ordering = `${descending ? '-' : ''}${field}`;
        const rows: LearnerReportRow[] = [];
        for (let page = 1; page <= 4; page += 1) {
          const body = await list(sysadmin.sub, `ordering=${ordering}&pageSize=5&page=${page}`);
          assert.equal(body.count, 17);
          assert.equal(body.totalPages, 4);
          rows.push(...body.results);
        }
        assert.equal(new Set(rows.map((r) => r.id)).size, 17, ordering);
        const sign = descending ? -1 : 1;
        const expected = [...rows].sort((a, b) => {
          const [x, y] = [of(a), of(b)];
          if (x !== y) return (x < y ? -1 : 1) * sign;
          return (a.id - b.id) * sign;
        });
        assert.deepEqual(
          rows.map((r) => r.id),
          expected.map((r) => r.id),
          ordering,
        );
      }
    }
  });

  test('the filter finds a session without a category by its configuration', async () => {
    const bare = await createReport(t.db, {
      userId: learner.sub,
      category: null,
      configuration: 'radiography.custom-wrist-study',
    });
    await createReport(t.db, { userId: learner.sub, product: 'radiography', category: 'Knee' });
    const found = await list(educator.sub, 'filter=WRIST-STUDY');
    assert.deepEqual(
      found.results.map((r) => [r.id, r.session]),
      [[bare.id, 'radiography.custom-wrist-study']],
    );
    assert.equal(found.count, 1);
  });
});
