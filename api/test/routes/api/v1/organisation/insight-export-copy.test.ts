import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import type { InsightFilter } from '../../../../../src/repositories/insight-repository';
import { cell, insightCsvStream } from '../../../../../src/services/insight/insight-export';
import {
  CsvRecordsToCrlf,
  insightCopyStream,
  jsRoundedText,
} from '../../../../../src/services/insight/insight-export-copy';
import { buildTestApp, type TestApp } from '../../../../helper';
import { buildCohort, lena, type Cohort } from './insight-data';

/**
 * export.csv through COPY (PostgreSQL, issue #23 point 6) against the csv-stringify path it
 * replaces there: the same bytes for the same rows, hostile cells included, and the stream's
 * manners (a paused client stops the server; an abort ends the COPY and frees the connection).
 */
describe('insight export through COPY', () => {
  let t: TestApp;
  let cohort: Cohort;
  const postgresOnly = (ctx: TestContext) => {
    if (t.db.kind === 'postgres') return false;
    ctx.skip('COPY needs PostgreSQL (PGlite exports through csv-stringify)');
    return true;
  };
  const day = (d: string): InsightFilter => ({
    organisationId: cohort.organisationId,
    from: d,
    to: d,
    productId: null,
    configuration: null,
    learner: null,
  });
  const drain = async (stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  };
  /** Backends of this database running an export's COPY (other test files' too). */
  const copies = async () =>
    (
      await t.db.query<{ pid: number; wait_event: string | null }>(
        `select pid, wait_event from pg_stat_activity
          where datname = current_database() and state = 'active' and query like 'copy (%'
            and pid <> pg_backend_pid()`,
      )
    ).rows;
  /** Which of `pids` still have a backend. */
  const alive = async (pids: number[]) =>
    (
      await t.db.query<{ pid: number }>(
        'select pid from pg_stat_activity where pid = any($1::int[])',
        [pids],
      )
    ).rows;
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (const started = Date.now(); Date.now() - started < 10_000;) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail(`timed out waiting until ${what}`);
  };

  /**
   * `count` one-image reports of Lena on `d`, each with a report comment of `comment`.
   * Returns the session uuids, oldest first.
   */
  async function reports(d: string, count: number, comment: string | null) {
    const res = await t.db.query<{ uuid: string }>(
      `insert into simulation_sessions (uuid, user_id, product_id, configuration, mode,
                                        token_hash, status, completed_at)
       select gen_random_uuid(), $1, p.id, 'radiography.lower-limb.knee', 'Desktop',
              md5(random()::text || n), 'complete',
              ($2::date)::timestamptz + n * interval '1 second'
         from products p, generate_series(1, $3::int) n where p.code = 'radiography'
       returning uuid`,
      [lena.sub, d, count],
    );
    const uuids = res.rows.map((r) => r.uuid);
    await t.db.query(
      `insert into evidence (session_uuid, position, practice_activity, evidence_data)
       select u, 0, 'Knee AP', '{"meta":{"type":"xray_image"}}' from unnest($1::uuid[]) u`,
      [uuids],
    );
    if (comment !== null) {
      await t.db.query(
        `insert into report_feedback (session_uuid, comment, author_name)
         select u, $2, 'Erin Educator' from unnest($1::uuid[]) u`,
        [uuids, comment],
      );
    }
    return uuids;
  }

  before(async () => {
    t = await buildTestApp();
    cohort = await buildCohort(t);
  });
  after(() => t.close());

  test('CRLF record ends: line feeds inside quoted cells stay, at any chunk boundary', async () => {
    const copy = 'a,"x\n""y""\n",b\n"",c,"\r\n"\nlast,"q"\n';
    const expected = 'a,"x\n""y""\n",b\r\n"",c,"\r\n"\r\nlast,"q"\r\n';
    for (let cut = 0; cut <= copy.length; cut += 1) {
      const chunks = [copy.slice(0, cut), copy.slice(cut)].map((c) => Buffer.from(c));
      const out = await drain(Readable.from(chunks).pipe(new CsvRecordsToCrlf()));
      assert.equal(out.toString(), expected, `cut at ${cut}`);
    }
  });

  test('numbers: the SQL writes what JavaScript writes, for values below 1e15', async (ctx) => {
    if (postgresOnly(ctx)) return;
    const special = [
      0,
      -0,
      0.0005,
      0.0004999999999999999,
      1.0005,
      2.5,
      -2.5,
      -0.0001,
      1e-7,
      123.4565,
      0.1 + 0.2,
      999999999999999.9,
      999999999999999.4,
      -999999999999999.5,
      5e-324,
      NaN,
    ];
    const values = [
      ...special,
      ...fc.sample(fc.double(), 5000).filter((v) => !(Math.abs(v) >= 1e15)),
      ...fc.sample(fc.double({ min: -1e4, max: 1e4 }), 3000),
      ...fc.sample(
        fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 20_000),
        2000,
      ),
    ];
    for (const digits of [3, 4]) {
      const res = await t.db.query<{ text: string }>(
        `select ${jsRoundedText('u.v', digits)} as text
           from unnest($1::float8[]) with ordinality u(v, n) order by n`,
        [values.map((v) => (Object.is(v, -0) ? '-0' : String(v)))],
      );
      const mismatches = values
        .map((v, n) => [v, res.rows[n]!.text, cell(v, digits)] as const)
        .filter(([, sql, js]) => sql !== js);
      assert.deepEqual(mismatches.slice(0, 10), [], `${digits} digits`);
    }
  });

  test('COPY writes the very bytes csv-stringify writes, hostile cells included', async (ctx) => {
    if (postgresOnly(ctx)) return;
    const d = '2026-06-01';
    const names = [
      ['\uFF1Dfull', 'width'],
      ['\tTab', 'Start'],
      ['', ''],
      ['+Plus', 'Line\nFeed'],
      ['@at', 'Carriage\rReturn'],
      ['Ünïcödé', 'Naïve "quoted", comma'],
    ];
    const ids: string[] = [];
    for (const [first, last] of names) {
      const res = await t.db.query<{ id: string }>(
        `insert into users (id, email, first_name, last_name, organisation_id, role_id)
         values (gen_random_uuid(), null, $1, $2, $3, 1) returning id::text`,
        [first, last, cohort.organisationId],
      );
      ids.push(res.rows[0]!.id);
    }
    const uuids = await reports(d, ids.length * 2, null);
    // Each learner owns two reports; the times carry microseconds (both paths truncate to ms).
    await t.db.query(
      `update simulation_sessions s
          set user_id = ($2::uuid[])[(x.n - 1) / 2 + 1],
              completed_at = completed_at + x.n * interval '0.2899993 second'
         from unnest($1::uuid[]) with ordinality x(u, n) where s.uuid = x.u`,
      [uuids, ids],
    );
    const cells: [string, unknown, string | null, string | null][] = [
      ['-Knee AP', { dose: { dapMGyCm2: 1.0005 } }, '=1+1', 'line one\nline two'],
      ['Knee "lateral"', { dose: { dapMGyCm2: 0.00049 } }, '\rCR first', '-minus'],
      ['Knee, AP', { dose: { dapMGyCm2: 999999999999999.4 } }, '', '\uFF20at'],
      ['\uFF0Bwide plus', { dose: { dapMGyCm2: 123.4565 } }, 'ok', null],
    ];
    const evidence = await t.db.query<{ id: number; session_uuid: string }>(
      `select id, session_uuid::text from evidence where session_uuid = any($1::uuid[])
        order by id`,
      [uuids],
    );
    for (const [n, e] of evidence.rows.entries()) {
      const [projection, data, imageComment, reportComment] = cells[n % cells.length]!;
      await t.db.query(
        `update evidence set practice_activity = $2, score = $3,
                evidence_data = evidence_data || $4::jsonb where id = $1`,
        [e.id, projection, n % 3 === 0 ? null : (n * 7.31) % 100, JSON.stringify(data)],
      );
      if (n % 2 === 0) {
        await t.db.query(
          `insert into evidence_marks (evidence_id, criterion, mark, max, reason, value, limit_value)
           values ($1, 'dose', $2, 50, 'dose_above_drl', $3, 100)`,
          [e.id, n % 4 === 0 ? null : 12.5, n * 33.333333],
        );
      }
      if (imageComment) {
        await t.db.query(
          `insert into evidence_feedback (evidence_id, comment, author_name) values ($1, $2, 'E')`,
          [e.id, imageComment],
        );
      }
      if (reportComment) {
        await t.db.query(
          `insert into report_feedback (session_uuid, comment, author_name) values ($1, $2, 'E')`,
          [e.session_uuid, reportComment],
        );
      }
    }
    await t.db.query(`update simulation_sessions set score = 42 where uuid = any($1::uuid[])`, [
      uuids.filter((_, n) => n % 2 === 1),
    ]);

    for (const filter of [day(d), { ...day('2026-03-02'), to: '2026-03-29' }]) {
      const viaStringify = await drain(insightCsvStream(t.db, filter));
      const viaCopy = await drain(await insightCopyStream(t.db, filter));
      assert.equal(viaCopy.toString('utf8'), viaStringify.toString('utf8'));
      assert.ok(viaCopy.equals(viaStringify));
      const rows = parse(viaCopy.subarray(3).toString('utf8'), { columns: true }) as Array<
        Record<string, string>
      >;
      assert.ok(rows.length >= 5, `${rows.length} rows`);
    }
    // The hostile cells did reach the file, so the comparison covered them.
    const text = (await drain(await insightCopyStream(t.db, day(d)))).toString('utf8');
    for (const expected of [
      `'\tTab Start`,
      `"'+Plus Line\nFeed"`,
      `"line one\nline two"`,
      `"'\rCR first"`,
      `'\uFF1Dfull width`,
      `'-Knee AP`,
      `,,`,
    ]) {
      assert.ok(text.includes(expected), JSON.stringify(expected));
    }
  });

  test('a paused client holds the COPY at the server; reading on gets every row', async (ctx) => {
    if (postgresOnly(ctx)) return;
    // 5 000 reports with a 3 000-character comment each: about 16 MB, more than the sockets'
    // buffers hold, so the server must wait for the client.
    await reports('2026-07-01', 5000, 'x'.repeat(3000));
    const before = new Set((await copies()).map((c) => c.pid));
    const reader = (await insightCopyStream(t.db, day('2026-07-01')))[Symbol.asyncIterator]();
    let bytes = (await reader.next()).value.length as number;
    const mine = async () => (await copies()).filter((c) => !before.has(c.pid));
    await until('the server waits for the client', async () =>
      (await mine()).some((c) => c.wait_event === 'ClientWrite'),
    );
    for (let next = await reader.next(); !next.done; next = await reader.next()) {
      bytes += (next.value as Buffer).length;
    }
    assert.ok(bytes > 15_000_000, `${bytes} bytes`);
    assert.deepEqual(await mine(), []);
  });

  test('a client gone mid-export ends the COPY and frees its connection', async (ctx) => {
    if (postgresOnly(ctx)) return;
    const stats = t.db.poolStats!;
    const before = new Set((await copies()).map((c) => c.pid));
    const stream = await insightCopyStream(t.db, day('2026-07-01'));
    const reader = stream[Symbol.asyncIterator]();
    let mine: number[] = [];
    try {
      await reader.next();
      // The statistics view may show the backend a moment after its first rows arrived.
      await until('the COPY runs', async () => {
        mine = (await copies()).map((c) => c.pid).filter((pid) => !before.has(pid));
        return mine.length >= 1;
      });
    } finally {
      // Never leave the export holding a connection: the files after this one share the process.
      stream.destroy();
    }
    // Its connection is dropped, so its backend ends.
    await until('the COPY has ended', async () => (await alive(mine)).length === 0);
    await until('the pool has no busy connection', async () => {
      const { total, idle } = stats();
      return total === idle;
    });
    // The pool serves the next export in full.
    const again = await drain(await insightCopyStream(t.db, day('2026-07-01')));
    assert.equal(parse(again.subarray(3).toString('utf8'), { columns: true }).length, 5000);
  });
});
