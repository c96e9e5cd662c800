/**
 * The report lists in the database alone (issue #11 point 4): the repository's queries for the
 * list probes of bench:api, timed without HTTP, token checks or a load generator, so a change to
 * a list's SQL can be judged on a busy machine too. Run against the database bench:api prepared:
 *
 *   pnpm --filter @portal/api exec tsx bench/report-lists.ts -- --database-url postgres://…/portal_bench
 *   … -- --rounds 40 --only filter
 *
 * It changes nothing: the schema is the one the last bench:api run migrated to (the API migrates
 * when it starts). Each case runs `--rounds` times one at a time after three unmeasured rounds;
 * prints p50, p95 and max in ms. With `--explain` the time is the database's own (planning +
 * execution of every query of the list, from EXPLAIN ANALYZE), which a busy machine blurs less
 * than the round trips, and a last column gives the median of the buffers (8 kB pages) the list's
 * queries touched, which does not depend on the machine at all.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Queryable } from '../src/db/driver';
import { createPgDb } from '../src/db/pg-driver';
import { createReportRepository, type ReportScope } from '../src/repositories/report-repository';
import { percentile } from './lib/stats';
import { DEEP_PAGE, ORDERINGS } from './lib/probes';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    'database-url': { type: 'string' },
    rounds: { type: 'string', default: '20' },
    only: { type: 'string' },
    explain: { type: 'boolean', default: false },
  },
});
const url = values['database-url'];
if (!url) throw new Error('--database-url is required (the database bench:api prepared)');
const rounds = Number(values.rounds);

const db = createPgDb({ connectionString: url, max: 2 });
/** In-database milliseconds and buffers of the queries since the last reset (--explain). */
let inDb = 0;
let buffers = 0;
const explained: Queryable = {
  async query<T>(sql: string, params?: readonly unknown[]) {
    const plan = await db.query<{ 'QUERY PLAN': Array<Record<string, number>> }>(
      `explain (analyze, buffers, format json) ${sql}`,
      params,
    );
    const top = plan.rows[0]?.['QUERY PLAN'][0];
    inDb += (top?.['Planning Time'] ?? 0) + (top?.['Execution Time'] ?? 0);
    const root = (top as { Plan?: Record<string, number> } | undefined)?.Plan;
    buffers += (root?.['Shared Hit Blocks'] ?? 0) + (root?.['Shared Read Blocks'] ?? 0);
    return db.query<T>(sql, params);
  },
  exec: (sql) => db.exec(sql),
};
try {
  const reports = createReportRepository(values.explain ? explained : db);
  // The educator of the probes (organisation scope) and the seated learners, as bench:api picks them.
  const educator = await db.query<{ organisation_id: number }>(
    `select organisation_id from users where email = 'educator@demo.test'`,
  );
  const organisationId = educator.rows[0]?.organisation_id;
  if (organisationId === undefined) throw new Error('No educator@demo.test: not a bench database');
  const learners = await db.query<{ email: string }>(
    `select u.email from users u
       join license_block_users lbu on lbu.user_id = u.id
       join license_blocks lb on lb.id = lbu.license_block_id and lb.license_name = 'Demo Hospital 2026'
      where u.email like 'bench-learner-%@bench.test'
      order by length(u.email), u.email`,
  );
  const numbers = learners.rows.map((r) => Number(/\d+/.exec(r.email)?.[0] ?? 0));
  const scope: ReportScope = { kind: 'organisation', organisationId };

  const cases: Array<{ name: string; run: (i: number) => Promise<unknown> }> = [
    { name: 'page 1', run: () => reports.listLearners(scope, { page: 1 }) },
    { name: `page ${DEEP_PAGE}`, run: () => reports.listLearners(scope, { page: DEEP_PAGE }) },
  ];
  for (const field of ORDERINGS) {
    for (const ordering of [field, `-${field}`]) {
      cases.push({
        name: `ordering=${ordering} (pages 1 and ${DEEP_PAGE} in turn)`,
        run: (i) => reports.listLearners(scope, { ordering, page: i % 2 === 0 ? 1 : DEEP_PAGE }),
      });
    }
  }
  cases.push(
    {
      // The same sequence of names as bench:api's probe; the first, "Learner 1", also matches
      // Learner 10…19, 100…199, 1000…1999 and 10000…19999.
      name: 'filter=Learner {n}',
      run: (i) =>
        reports.listLearners(scope, {
          filter: `Learner ${numbers[(i * 7919) % numbers.length]}`,
        }),
    },
    {
      name: 'filter=radiography',
      run: () => reports.listLearners(scope, { filter: 'radiography' }),
    },
  );

  console.log(
    `organisation ${organisationId}, ${rounds} rounds per case, ms ` +
      `${values.explain ? 'in the database (EXPLAIN ANALYZE)' : 'per list, one at a time'}`,
  );
  console.log(
    `${'case'.padEnd(60)}  ${'p50'.padStart(7)}  ${'p95'.padStart(7)}  ${'max'.padStart(7)}` +
      (values.explain ? `  ${'buffers'.padStart(8)}` : ''),
  );
  for (const c of cases.filter((c) => !values.only || c.name.includes(values.only))) {
    for (let i = 0; i < 3; i++) await c.run(i);
    const times: number[] = [];
    const pages: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const at = performance.now();
      inDb = 0;
      buffers = 0;
      await c.run(i);
      times.push(values.explain ? inDb : performance.now() - at);
      pages.push(buffers);
    }
    times.sort((a, b) => a - b);
    pages.sort((a, b) => a - b);
    const f = (ms: number) => ms.toFixed(1).padStart(7);
    console.log(
      `${c.name.padEnd(60)}  ${f(percentile(times, 50))}  ${f(percentile(times, 95))}  ${f(times.at(-1)!)}` +
        (values.explain ? `  ${String(percentile(pages, 50)).padStart(8)}` : ''),
    );
  }
} finally {
  await db.close();
}
