import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Insight, Progress } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import { buildCohort, lena, otherLearner, RANGE, ZOE, type Cohort } from './insight-data';

describe('GET /api/v1/organisation/:id/insight and /api/v1/report/progress', () => {
  let t: TestApp;
  let cohort: Cohort;
  const educator = account('educator', 'Demo Hospital');
  const otherEducator = account('educator', 'Demo Brightspace College');
  const sysadmin = account('sys admin');

  const get = async (sub: string, url: string) => {
    const res = await t.app.inject({ url, headers: await authHeader(sub) });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };
  const insightUrl = (
    query: Record<string, string | number> = RANGE,
    org = cohort.organisationId,
  ) =>
    `/api/v1/organisation/${org}/insight?${new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    )}`;
  const insight = async (query?: Record<string, string | number>, sub = educator.sub) => {
    const res = await get(sub, insightUrl(query));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as unknown as Insight;
  };

  before(async () => {
    t = await buildTestApp();
    cohort = await buildCohort(t);
  });
  after(() => t.close());

  test('the numbers of a known cohort, computed by hand', async () => {
    const body = await insight();
    assert.equal(body.organisationId, cohort.organisationId);
    assert.equal(body.from, RANGE.from);
    assert.equal(body.to, RANGE.to);
    // Three reports of two learners; five images; session scores 50, 100, 75.
    assert.deepEqual(body.totals, { sessions: 3, activeLearners: 2, images: 5, meanMark: 75 });
    // Every week of the range, the empty ones with zeros.
    assert.deepEqual(body.weeks, [
      { weekStart: '2026-03-02', sessions: 2, activeLearners: 2 },
      { weekStart: '2026-03-09', sessions: 0, activeLearners: 0 },
      { weekStart: '2026-03-16', sessions: 1, activeLearners: 1 },
      { weekStart: '2026-03-23', sessions: 0, activeLearners: 0 },
    ]);
    assert.deepEqual(body.projections, [
      {
        // Marks 100, 50 (a repeat, below the pass mark 60), 100; dose ÷ DRL 0.5, 1.2, 0.8.
        projection: 'Knee AP',
        images: 3,
        repeatRate: 0.3333,
        rejectRate: 0.3333,
        medianDoseToDrl: 0.8,
        p75DoseToDrl: 1, // interpolated: 0.8 + 0.5 × (1.2 − 0.8)
        meanMark: 83.33,
      },
      {
        // Marks 0 and 75; dose ÷ DRL 2.0 and 0.9.
        projection: 'Knee lateral',
        images: 2,
        repeatRate: 0,
        rejectRate: 0.5,
        medianDoseToDrl: 1.45,
        p75DoseToDrl: 1.725, // 0.9 + 0.75 × 1.1
        meanMark: 37.5,
      },
    ]);
    // By name: "=hyperlink…" sorts before "lena learner".
    assert.deepEqual(body.learners, [
      {
        userId: cohort.zoe,
        name: `${ZOE.first} ${ZOE.last}`,
        sessions: 1,
        meanMark: 75,
        firstToLastChange: null,
        lastActive: '2026-03-04T10:00:00.000Z',
      },
      {
        userId: lena.sub,
        name: 'Lena Learner',
        sessions: 2,
        meanMark: 75,
        firstToLastChange: 50,
        lastActive: '2026-03-17T10:00:00.000Z',
      },
    ]);
  });

  test('filters: learner, product, configuration, a range of one day', async () => {
    const mine = await insight({ ...RANGE, learner: lena.sub });
    assert.deepEqual(mine.totals, { sessions: 2, activeLearners: 1, images: 4, meanMark: 75 });
    assert.deepEqual(
      mine.learners.map((l) => l.userId),
      [lena.sub],
    );
    const knee = await insight({ ...RANGE, configuration: 'RADIOGRAPHY.lower-limb.knee' });
    assert.equal(knee.totals.sessions, 3);
    const none = await insight({ ...RANGE, configuration: 'radiography.lower-limb.hand' });
    assert.deepEqual(none.totals, { sessions: 0, activeLearners: 0, images: 0, meanMark: null });
    assert.deepEqual(none.projections, []);
    assert.equal(none.weeks.length, 4);
    const birthing = await t.db.query<{ id: number }>(
      `select id from products where code = 'birthing'`,
    );
    const other = await insight({ ...RANGE, productId: birthing.rows[0]!.id });
    assert.equal(other.totals.sessions, 0);
    // One day, a Wednesday: its week is listed from its Monday.
    const day = await insight({ from: '2026-03-04', to: '2026-03-04' });
    assert.deepEqual(day.weeks, [{ weekStart: '2026-03-02', sessions: 1, activeLearners: 1 }]);
    assert.deepEqual(day.totals, { sessions: 1, activeLearners: 1, images: 1, meanMark: 75 });
  });

  test('defaults to the last 90 days up to today', async () => {
    const body = await insight({});
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(body.to, today);
    assert.equal((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000, 89);
    assert.ok(body.weeks.length >= 13 && body.weeks.length <= 14, String(body.weeks.length));
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ from: '2026-03-10', to: '2026-03-09' }, 'to'],
      [{ from: '2025-01-01', to: '2026-01-02' }, 'from'],
      [{ from: '2026-02-30' }, 'from'],
      [{ to: 'yesterday' }, 'to'],
      [{ ...RANGE, learner: otherLearner.sub }, 'learner'],
      [{ ...RANGE, learner: 'not-a-uuid' }, 'learner'],
      [{ ...RANGE, productId: 0 }, 'productId'],
      // A date format accepts year 0000, which no PostgreSQL date is (found by the fuzz suite).
      [{ from: '0000-06-01', to: '0000-06-02' }, 'from'],
      [{ to: '0000-06-02' }, 'to'],
    ];
    for (const [query, field] of cases) {
      const res = await get(educator.sub, insightUrl(query));
      assert.equal(res.status, 400, JSON.stringify({ query, body: res.body }));
      assert.ok(JSON.stringify(res.body).includes(field), JSON.stringify(res.body));
    }
    // A range whose derived end would pass the last day a date names ends there (it was a 500:
    // the export had already answered as CSV when the database refused "+010000-…").
    const last = await get(educator.sub, insightUrl({ from: '9999-12-31' }));
    assert.equal(last.status, 200, JSON.stringify(last.body));
    assert.deepEqual(
      [(last.body as unknown as Insight).from, (last.body as unknown as Insight).to],
      ['9999-12-31', '9999-12-31'],
    );
    const first = await get(educator.sub, insightUrl({ to: '0001-01-01' }));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal((first.body as unknown as Insight).from, '0001-01-01');
    // Exactly 366 days is allowed.
    assert.equal(
      (await get(educator.sub, insightUrl({ from: '2024-01-01', to: '2024-12-31' }))).status,
      200,
    );
  });

  test('permissions and object scope', async () => {
    // A learner lacks view_org_reports.
    assert.equal((await get(lena.sub, insightUrl())).status, 403);
    // Another organisation's educator, and an unknown organisation: 404, nothing to probe.
    assert.equal((await get(otherEducator.sub, insightUrl())).status, 404);
    assert.equal(
      (await get(educator.sub, insightUrl(RANGE, cohort.otherOrganisationId))).status,
      404,
    );
    assert.equal((await get(sysadmin.sub, insightUrl(RANGE, 999_999))).status, 404);
    // A global administrator reads any organisation.
    const other = await get(sysadmin.sub, insightUrl(RANGE, cohort.otherOrganisationId));
    assert.equal(other.status, 200);
    assert.equal((other.body as unknown as Insight).totals.sessions, 1);
    assert.deepEqual(
      (other.body as unknown as Insight).learners.map((l) => l.userId),
      [otherLearner.sub],
    );
    // Another organisation's educator reads their own, which has no reports in the range.
    const brightspace = await t.db.query<{ id: number }>(
      `select id from organisations where name = 'Demo Brightspace College'`,
    );
    const own = await get(otherEducator.sub, insightUrl(RANGE, brightspace.rows[0]!.id));
    assert.equal(own.status, 200);
    assert.equal((own.body as unknown as Insight).totals.sessions, 0);
  });

  test('progress: the learner sees their own marks per projection, oldest first', async () => {
    const res = await get(lena.sub, '/api/v1/report/progress');
    assert.equal(res.status, 200);
    const { projections } = res.body as unknown as Progress;
    const ap = projections.find((p) => p.projection === 'Knee AP')!;
    const lateral = projections.find((p) => p.projection === 'Knee lateral')!;
    // S1's AP images average (100 + 50) / 2; the 2026-03-01 and 2026-04-01 reports count too.
    assert.deepEqual(
      ap.points.map((p) => [p.recorded, p.mark]),
      [
        ['2026-03-01T23:59:59.000Z', 100],
        ['2026-03-03T10:00:00.000Z', 75],
        ['2026-03-17T10:00:00.000Z', 100],
        ['2026-04-01T00:00:00.000Z', 100],
      ],
    );
    assert.equal(ap.points[1]!.reportId, cohort.sessions.s1);
    assert.deepEqual(
      lateral.points.map((p) => p.mark),
      [0],
    );
    // Zoe's report is hers alone.
    const zoe = await get(cohort.zoe, '/api/v1/report/progress');
    assert.equal(zoe.status, 200);
    assert.deepEqual(zoe.body, {
      projections: [
        {
          projection: 'Knee lateral',
          points: [
            { reportId: cohort.sessions.s3, recorded: '2026-03-04T10:00:00.000Z', mark: 75 },
          ],
        },
      ],
    });
    // The educator's own progress is empty, not their learners'.
    assert.deepEqual((await get(educator.sub, '/api/v1/report/progress')).body, {
      projections: [],
    });
  });
});
