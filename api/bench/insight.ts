/**
 * Cohort insight at scale (issue #23 point 6): the insight queries and the CSV export of one
 * organisation in the bench:api database (PostgreSQL, 1 000 000 reports, 20 organisations, 50 000
 * learners: Demo Hospital holds 2 500 learners and 50 000 reports over about two years).
 *
 *   createdb -O portal portal_bench_insight
 *   pnpm --filter @portal/api bench:insight -- --database-url postgres://portal:portal@127.0.0.1/portal_bench_insight
 *
 * Prepares the database as bench:api does (reused when an earlier run prepared the same sizes),
 * then marks Demo Hospital's X-ray images once the way the marking transaction stores marks
 * (evidence_marks, evidence.score, the session's score and pass mark, the configuration's
 * scheme), since bench:api's reports predate marking. Then times, one request at a time after
 * three unmeasured rounds, an insight of the last 90 days and of the last 365 days (the
 * repository's insight(), as the route runs it: three queries at once) and the export of the
 * year (rows per second, read through the stream the route sends — COPY — and, for comparison,
 * through the keyset pages and csv-stringify that PGlite uses). Targets: p95 ≤ 150 ms and ≤ 400 ms, ≥ 50 000 rows/s.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPgDb } from '../src/db/pg-driver';
import {
  createInsightRepository,
  type InsightFilter,
} from '../src/repositories/insight-repository';
import {
  EXPORT_PAGE_IMAGES,
  exportRows,
  insightCsvStream,
} from '../src/services/insight/insight-export';
import { readFile } from 'node:fs/promises';
import {
  COPY_SELECT,
  copySettings,
  insightExportStream,
} from '../src/services/insight/insight-export-copy';
import { BENCH_ORGANISATION, prepareDatabase } from './lib/prepare-database';
import { percentile } from './lib/stats';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    rounds: { type: 'string', default: '30' },
    reports: { type: 'string', default: '1000000' },
    explain: { type: 'boolean', default: false },
  },
});
const url = values['database-url'];
if (!url)
  throw new Error('--database-url is required (a dedicated database, e.g. portal_bench_insight)');
const rounds = Number(values.rounds);
const log = (text: string) => process.stderr.write(`${text}\n`);

log('Preparing the bench:api data (reused when already prepared)…');
const prepared = await prepareDatabase(
  { kind: 'postgres', url },
  {
    population: 50_000,
    organisations: 20,
    reports: Number(values.reports),
    evidencePerReport: 3,
    seated: 1000,
  },
);
log(`  ${prepared.reports} reports, ${prepared.evidence} evidence items`);

const db = createPgDb({ connectionString: url, max: 4 });
try {
  const org = await db.query<{ id: number }>('select id from organisations where name = $1', [
    BENCH_ORGANISATION,
  ]);
  const organisationId = org.rows[0]!.id;
  await markOrganisation(organisationId);

  const insight = createInsightRepository(db);
  const day = (offset: number) =>
    new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
  const filter = (days: number): InsightFilter => ({
    organisationId,
    from: day(days - 1),
    to: day(0),
    productId: null,
    configuration: null,
    learner: null,
  });
  const run = (f: InsightFilter) => insight.insight(f);

  for (const days of [90, 365]) {
    const f = filter(days);
    const first = await run(f);
    for (let i = 0; i < 2; i += 1) await run(f);
    const times: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const started = performance.now();
      await run(f);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const target = days === 90 ? 150 : 400;
    console.log(
      `insight ${days} days: ${first.totals.sessions} reports, ${first.totals.images} images, ` +
        `${first.learners.length} learners — p50 ${percentile(times, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(times, 95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms ` +
        `(target p95 ≤ ${target} ms)`,
    );
    if (values.explain) {
      for (const [name, sql] of Object.entries(await explainables(f))) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${sql.text}`,
          sql.params,
        );
        console.log(
          `\n-- ${name} (${days} days)\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`,
        );
      }
    }
  }

  // The route's export (COPY on PostgreSQL), then the keyset pages through csv-stringify that
  // PGlite uses, for comparison.
  await timeExport('export 365 days (COPY, the route on PostgreSQL)', async () =>
    insightExportStream(db, filter(365)),
  );
  await timeExport('export 365 days (keyset pages + csv-stringify, the PGlite path)', async () =>
    insightCsvStream(db, filter(365)),
  );
  if (values.explain) {
    const plan = await db.transaction(async (tx) => {
      for (const [name, value] of Object.entries(copySettings(filter(365)))) {
        await tx.query('select set_config($1, $2, true)', [name, value]);
      }
      return tx.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${COPY_SELECT}`);
    });
    console.log(`\n-- export COPY select\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  if (values.explain) {
    // The second page of the export (a keyset continuation), as the stream asks for it.
    const pages: { text: string; params: readonly unknown[] }[] = [];
    const capture = {
      query: async (text: string, params: readonly unknown[] = []) => {
        pages.push({ text, params });
        return db.query(text, params as unknown[]);
      },
      exec: (sql: string) => db.exec(sql),
    } as Parameters<typeof exportRows>[0];
    let read = 0;
    for await (const _ of exportRows(capture, filter(365))) if (++read > EXPORT_PAGE_IMAGES) break;
    const page = pages[1]!;
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${page.text}`,
      page.params as unknown[],
    );
    console.log(`\n-- export page 2\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
} finally {
  await db.close();
}

/** Reads an export to its end: rows per second, and per second of this process's CPU. */
async function timeExport(name: string, open: () => Promise<AsyncIterable<unknown>>) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const dbBefore = await databaseCpu();
  let bytes = 0;
  let rows = -1; // the header
  for await (const chunk of await open()) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    for (let at = buffer.indexOf(0x0a); at !== -1; at = buffer.indexOf(0x0a, at + 1)) rows += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const dbAfter = await databaseCpu();
  const dbSeconds = dbAfter && dbBefore ? cpuSince(dbBefore, dbAfter) : null;
  console.log(
    `${name}: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s — ` +
      `${Math.round(rows / seconds)} rows/s (target ≥ 50 000), process RSS ` +
      `${Math.round(process.memoryUsage().rss / 1e6)} MB; this process used ` +
      `${cpuSeconds.toFixed(2)} s of CPU, ${Math.round(rows / cpuSeconds)} rows per CPU-second` +
      (dbSeconds === null
        ? ''
        : `; the database's backends ${dbSeconds.toFixed(2)} s, ` +
          `${Math.round(rows / dbSeconds)} rows per CPU-second`) +
      ` (a busy machine's wall time is the CPU the other processes left)`,
  );
}

/**
 * CPU seconds so far of each backend of the bench's database, from /proc (a database on this
 * machine, readable by this user; null otherwise). Clock ticks are 100 a second on Linux.
 */
async function databaseCpu(): Promise<Map<number, number> | null> {
  const pids = await db.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database()',
  );
  const cpu = new Map<number, number>();
  try {
    for (const { pid } of pids.rows) {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    }
  } catch {
    return null;
  }
  return cpu;
}

function cpuSince(before: Map<number, number>, after: Map<number, number>) {
  return [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);
}

/**
 * Marks the organisation's X-ray images once (idempotent: skipped when its reports have scores):
 * a dose mark against a DRL of 1 mGy·cm² (the bench's DAPs are 0.2–0.7), an image score spread
 * over 40–100, the session's score the mean of its images and a pass mark of 60.
 */
async function markOrganisation(organisationId: number) {
  const done = await db.query(
    'select 1 from simulation_sessions where organisation_id = $1 and score is not null limit 1',
    [organisationId],
  );
  if (done.rows.length > 0) return;
  log("Marking the organisation's images as the marking transaction would…");
  const started = performance.now();
  await db.transaction(async (tx) => {
    await tx.query(
      `update product_configurations set marking_scheme = $1::jsonb where marking_scheme is null`,
      [
        JSON.stringify({
          passMark: 60,
          criteria: { dose: { weight: 20, drlDapMGyCm2: 1, partialAtMostPercent: 150 } },
        }),
      ],
    );
    await tx.query(
      `insert into evidence_marks (evidence_id, criterion, mark, max, reason, value, limit_value)
       select e.id, 'dose', 20, 20, 'met', (e.evidence_data #>> '{dose,dapMGyCm2}')::float8, 1
         from evidence e join simulation_sessions s on s.uuid = e.session_uuid
        where s.organisation_id = $1 and e.evidence_data #>> '{meta,type}' = 'xray_image'
       on conflict do nothing`,
      [organisationId],
    );
    await tx.query(
      `update evidence e set score = 40 + (e.id::bigint * 7919) % 61
         from simulation_sessions s
        where s.uuid = e.session_uuid and s.organisation_id = $1
          and e.evidence_data #>> '{meta,type}' = 'xray_image'`,
      [organisationId],
    );
    await tx.query(
      `update simulation_sessions s set pass_mark = 60,
              score = (select round(avg(e.score)) from evidence e where e.session_uuid = s.uuid)
        where s.organisation_id = $1`,
      [organisationId],
    );
  });
  await db.exec('analyze evidence; analyze evidence_marks; analyze simulation_sessions');
  log(`  marked in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The insight queries as SQL, for EXPLAIN ANALYZE (--explain): recorded through a stand-in. */
async function explainables(f: InsightFilter) {
  const captured: Record<string, { text: string; params: readonly unknown[] }> = {};
  const names = ['weeks', 'projections', 'learners'] as const;
  for (const name of names) {
    const capture = createInsightRepository({
      query: async (text: string, params: readonly unknown[] = []) => {
        captured[name] = { text, params };
        return db.query(text, params);
      },
      exec: (sql: string) => db.exec(sql),
    } as Parameters<typeof createInsightRepository>[0]);
    await capture[name](f);
  }
  return captured;
}
