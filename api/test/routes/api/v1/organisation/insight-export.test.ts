import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { INSIGHT_EXPORT_COLUMNS } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';
import { insightCsvStream } from '../../../../../src/services/insight/insight-export';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { buildCohort, lena, RANGE, ZOE, type Cohort } from './insight-data';

describe('GET /api/v1/organisation/:id/insight/export.csv', () => {
  let t: TestApp;
  let cohort: Cohort;
  const educator = account('educator', 'Demo Hospital');
  const orgAdmin = account('org admin', 'Demo Hospital');
  const otherEducator = account('educator', 'Demo Brightspace College');

  const exportUrl = (query: Record<string, string> = RANGE, org = cohort.organisationId) =>
    `/api/v1/organisation/${org}/insight/export.csv?${new URLSearchParams(query)}`;
  const download = async (sub: string, url = exportUrl()) =>
    t.app.inject({ url, headers: await authHeader(sub) });

  before(async () => {
    t = await buildTestApp();
    cohort = await buildCohort(t);
  });
  after(() => t.close());

  test('one row per image: BOM, header, RFC 4180 quoting, formulas neutralised', async () => {
    // The educator's feedback on s1 (issue #23 point 3): on its first image and on the report.
    const {
      rows: [first],
    } = await t.db.query<{ id: number }>(
      'select id from evidence where session_uuid = $1 order by position limit 1',
      [cohort.sessions.s1],
    );
    const feedback = [
      [
        `/api/v1/report/${cohort.sessions.s1}/evidence/${first!.id}/feedback`,
        '-Centre on the joint',
      ],
      [`/api/v1/report/${cohort.sessions.s1}/feedback`, 'Good progress, Lena'],
    ] as const;
    for (const [url, comment] of feedback) {
      const put = await t.app.inject({
        method: 'PUT',
        url,
        headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
        payload: { comment },
      });
      assert.equal(put.statusCode, 200, `${url}: ${put.body}`);
    }
    const res = await download(educator.sub);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      res.headers['content-disposition'],
      `attachment; filename="insight-${cohort.organisationId}-${RANGE.from}-${RANGE.to}.csv"`,
    );
    const bytes = res.rawPayload;
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
    const text = bytes.subarray(3).toString('utf8');
    assert.ok(text.startsWith(`${INSIGHT_EXPORT_COLUMNS.join(',')}\r\n`), text.slice(0, 200));
    // Zoe's name starts with "=", holds a comma and quotes: prefixed, quoted, quotes doubled.
    assert.ok(
      text.includes(`"'=HYPERLINK(""x"") Quote, ""Q"""`),
      text.split('\r\n').find((l) => l.includes('HYPERLINK')),
    );
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 5);
    const s1 = rows.filter((r) => r.session === cohort.sessions.s1);
    assert.deepEqual(
      s1.map((r) => [
        r.projection,
        r.image_mark,
        r.session_score,
        r.repeat,
        r.dap_mgy_cm2,
        r.dose_to_drl,
      ]),
      [
        ['Knee AP', '100', '50', 'no', '50', '0.5'],
        ['Knee AP', '50', '50', 'yes', '120', '1.2'],
        ['Knee lateral', '0', '50', 'no', '200', '2'],
      ],
    );
    assert.equal(s1[0]!.learner, 'Lena Learner');
    assert.equal(s1[0]!.learner_email, 'learner@demo.test');
    assert.equal(s1[0]!.recorded, '2026-03-03T10:00:00.000Z');
    assert.equal(s1[0]!.configuration, 'radiography.lower-limb.knee');
    assert.equal(s1[1]!.criteria, 'centring 25/50 off_centre; dose 25/50 dose_above_drl');
    assert.equal(s1[0]!.criteria, 'centring 50/50; dose 50/50');
    // Feedback travels with the image and the report; a leading "-" is neutralised too.
    assert.equal(s1[0]!.image_feedback, "'-Centre on the joint");
    assert.equal(s1[1]!.image_feedback, '');
    assert.deepEqual(
      s1.map((r) => r.report_feedback),
      ['Good progress, Lena', 'Good progress, Lena', 'Good progress, Lena'],
    );
    assert.equal(rows.find((r) => r.session === cohort.sessions.s2)!.report_feedback, '');
    const zoe = rows.find((r) => r.session === cohort.sessions.s3)!;
    assert.equal(zoe.learner, `'${ZOE.first} ${ZOE.last}`);
    // Ordered by when recorded, then by capture.
    assert.deepEqual(
      [...new Set(rows.map((r) => r.session))],
      [cohort.sessions.s1, cohort.sessions.s3, cohort.sessions.s2],
    );
  });

  test('the insight filters apply; export_user_data alone does not reach other organisations', async () => {
    const mine = await download(orgAdmin.sub, exportUrl({ ...RANGE, learner: lena.sub }));
    assert.equal(mine.statusCode, 200);
    const rows = parse(mine.rawPayload.subarray(3).toString('utf8'), {
      columns: true,
    }) as unknown[];
    assert.equal(rows.length, 4);
    assert.equal((await download(lena.sub)).statusCode, 403);
    assert.equal((await download(otherEducator.sub)).statusCode, 404);
    const bad = await download(educator.sub, exportUrl({ from: '2026-03-10', to: '2026-03-01' }));
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /"to"/);
  });

  test('streams: while the client reads nothing, the export stops reading pages', async () => {
    // 1 000 one-image reports of Lena on one day (about 150 kB of CSV), read 50 images a page.
    await t.db.query(
      `with s as (
         insert into simulation_sessions (uuid, user_id, product_id, configuration, mode,
                                          token_hash, status, completed_at)
         select gen_random_uuid(), $1, p.id, 'radiography.lower-limb.knee', 'Desktop',
                md5(random()::text || n), 'complete',
                '2026-05-05T08:00:00Z'::timestamptz + n * interval '1 second'
           from products p, generate_series(1, 1000) n where p.code = 'radiography'
         returning uuid)
       insert into evidence (session_uuid, position, practice_activity, evidence_data)
       select uuid, 0, 'Knee AP', '{"meta":{"type":"xray_image"}}' from s`,
      [lena.sub],
    );
    const queries: string[] = [];
    const counting: Queryable = {
      query: (sql, params) => {
        queries.push(sql);
        return t.db.query(sql, params);
      },
      exec: (sql) => t.db.exec(sql),
    };
    const filter = {
      organisationId: cohort.organisationId,
      from: '2026-05-05',
      to: '2026-05-05',
      productId: null,
      configuration: null,
      learner: null,
    };
    const chunks: Buffer[] = [];
    const reader = insightCsvStream(counting, filter, 50)[Symbol.asyncIterator]();
    const first = await reader.next();
    chunks.push(Buffer.from(first.value as Buffer));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Twenty pages of one query each (50 images a page) exist; a paused client holds the reading
    // at the streams' buffers (some tens of kB), a few pages in.
    const whilePaused = queries.length;
    assert.ok(whilePaused < 10, `${whilePaused} queries while the client read nothing`);
    for (let next = await reader.next(); !next.done; next = await reader.next()) {
      chunks.push(Buffer.from(next.value as Buffer));
    }
    assert.equal(queries.length, 21);
    const rows = parse(Buffer.concat(chunks).subarray(3).toString('utf8'), { columns: true });
    assert.equal(rows.length, 1000);
  });

  test('a comment of several lines stays in its cell (quoted, line feeds kept)', async () => {
    const comment = 'Line one\nLine two\r\nLine three';
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/report/${cohort.sessions.s2}/feedback`,
      headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
      payload: { comment },
    });
    assert.equal(put.statusCode, 200, put.body);
    const res = await download(educator.sub);
    const text = res.rawPayload.subarray(3).toString('utf8');
    assert.ok(text.includes(`"${comment}"`), 'the cell is quoted');
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 5);
    assert.equal(rows.find((r) => r.session === cohort.sessions.s2)!.report_feedback, comment);
  });
});
