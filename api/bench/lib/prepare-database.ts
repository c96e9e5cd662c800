import { performance } from 'node:perf_hooks';
import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import type { Db } from '../../src/db/driver';
import { migrate } from '../../src/db/migrate';
import { createPgDb } from '../../src/db/pg-driver';
import { createPgliteDb } from '../../src/db/pglite-driver';
import { DEMO_ORGANISATION_COUNT, seedDemoData } from '../../src/demo/seed-demo-data';
import { seedReferenceData } from '../../src/reference/seed-reference-data';

export const BENCH_ORGANISATION = 'Demo Hospital';
export const BENCH_LICENCE = 'Demo Hospital 2026';
const EDUCATOR_EMAIL = 'educator@demo.test';
/** Reports written per transaction: big enough for set-based speed, small enough to show progress. */
const REPORT_BATCH = 100_000;

export interface BenchUser {
  id: string;
  email: string;
}

/** What the bench database holds; the same sizes let a later run reuse a prepared PostgreSQL. */
export interface DataSize {
  /** Learners in the database, spread over the organisations round robin. */
  population: number;
  /** Organisations in all, the demo ones included (DEMO_ORGANISATION_COUNT). */
  organisations: number;
  reports: number;
  evidencePerReport: number;
  /** Learners of Demo Hospital with a seat on its licence: the simulated learners of the load. */
  seated: number;
}

export type DatabaseTarget = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };

export interface PreparedDatabase {
  /** Seated learners of Demo Hospital, in a stable order. */
  learners: BenchUser[];
  educator: BenchUser;
  reports: number;
  evidence: number;
  /** False when a PostgreSQL prepared by an earlier run with the same sizes was reused. */
  built: boolean;
  /** Seconds spent on each step, printed so a slow preparation is visible. */
  timings: Record<string, number>;
}

const log = (text: string) => process.stderr.write(`${text}\n`);

/**
 * Builds the database the API will open: migrations, reference and demo data exactly as the API
 * seeds them, then extra organisations, `population` learners over them, seats on Demo Hospital's
 * licence for `seated` of its learners, and `reports` ended sessions with `evidencePerReport`
 * items each, spread round robin over every user and every leaf. All of it is server-side bulk
 * SQL (`insert … select … generate_series`) in batches: nothing crosses the wire row by row, so
 * a million reports take minutes.
 *
 * A PostgreSQL database is marked as prepared (table `bench_prepared`) and reused by later runs
 * with the same sizes unless `rebuild` is set; the bench only ever rebuilds a database that is
 * empty or that it prepared itself.
 */
export async function prepareDatabase(
  target: DatabaseTarget,
  size: DataSize,
  rebuild = false,
): Promise<PreparedDatabase> {
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await fn();
    timings[name] = (timings[name] ?? 0) + (performance.now() - started) / 1000;
    return result;
  };

  const db =
    target.kind === 'pglite'
      ? await createPgliteDb(target.dir)
      : createPgDb({ connectionString: target.url, max: 2 });
  try {
    let built = true;
    if (target.kind === 'postgres') {
      const state = await preparedState(db, size);
      if (state === 'same' && !rebuild) {
        built = false;
        // Migrations added since the data was prepared (the API would apply them at start too).
        const applied = await step('migrate', () => migrate(db));
        if (applied.length > 0) log(`  applied ${applied.join(', ')}`);
        await step('remove earlier runs’ reports', () => removeRunsReports(db, size));
        // An earlier run ended with its learners' sessions open, and their tokens live for a
        // day: after five runs every learner's launch would be refused as "5 sessions open".
        await step('close earlier runs’ sessions', () =>
          db.exec(
            `update simulation_sessions set status = 'closed', closed_at = now()
              where status in ('not_started', 'in_progress')`,
          ),
        );
        // Every run starts from the same state of the database. Earlier runs (and the update
        // above) left dead rows and changed a share of each table: autovacuum and autoanalyze
        // would otherwise take a core for seconds at a moment of their choosing, within the
        // measured window of one run and not of the next; a migration's rewritten rows need
        // fresh statistics and a visibility map too. The checkpoint writes the dirty pages now
        // rather than during the run (checkpoint_timeout is 5 minutes by default); it needs
        // superuser or pg_checkpoint, and a run without it is only less repeatable.
        await step('vacuum analyze', () => db.exec('vacuum analyze'));
        await step('checkpoint', () => db.exec('checkpoint').catch(() => undefined));
      } else {
        if (state === 'foreign') {
          throw new Error(
            'The database holds tables but was not prepared by the bench: give the bench a ' +
              'dedicated database (e.g. createdb -O portal portal_bench).',
          );
        }
        if (state !== 'empty') log('  dropping the earlier bench data (schema public)…');
        await db.exec('drop schema if exists public cascade; create schema public');
        // Marked before it is filled: a build that fails half-way is the bench's to redo.
        await db.exec(
          'create table bench_prepared (size jsonb not null, prepared_at timestamptz not null default now())',
        );
      }
    }
    if (built) await build(db, size, step);

    const learners = await db.query<BenchUser>(
      `select u.id, u.email from users u
         join license_block_users lbu on lbu.user_id = u.id
         join license_blocks lb on lb.id = lbu.license_block_id and lb.license_name = $1
        where u.email like 'bench-learner-%@bench.test'
        order by length(u.email), u.email`,
      [BENCH_LICENCE],
    );
    const counts = await db.query<{ reports: number; evidence: number }>(
      `select (select count(*)::int from simulation_sessions) as reports,
              (select count(*)::int from evidence) as evidence`,
    );
    const educator = DEMO_ACCOUNTS.find((a) => a.email === EDUCATOR_EMAIL);
    if (!educator) throw new Error(`No demo account ${EDUCATOR_EMAIL}`);
    return {
      learners: learners.rows,
      educator: { id: educator.sub, email: educator.email },
      reports: counts.rows[0]?.reports ?? 0,
      evidence: counts.rows[0]?.evidence ?? 0,
      built,
      timings,
    };
  } finally {
    await db.close();
  }
}

/**
 * `learners` seated at Demo Hospital and nothing else, as the restart and polling benches want:
 * learners go round robin over the organisations, so as many times `learners` as there are demo
 * ones (with two, after the seed's third, only 334 of 500 were Demo Hospital's).
 */
export async function prepareSeatedLearners(
  target: DatabaseTarget,
  learners: number,
): Promise<PreparedDatabase> {
  const prepared = await prepareDatabase(target, {
    population: DEMO_ORGANISATION_COUNT * learners,
    organisations: DEMO_ORGANISATION_COUNT,
    reports: 0,
    evidencePerReport: 0,
    seated: learners,
  });
  if (prepared.learners.length < learners) {
    throw new Error(`only ${prepared.learners.length} learners could be seated`);
  }
  return prepared;
}

/**
 * Takes the database back to the reports it was prepared with. Each run adds its learners'
 * sessions (about 1 500 with 2 000 images, their marks and insight rows), so after twenty runs a
 * database prepared with 20 000 reports held 48 000, and PostgreSQL's share of the machine had
 * grown with it run by run: runs of one code base were no longer alike. The prepared sessions
 * are ids 1 to `reports` (`bench-session-<n>`); everything after the last of them (everything,
 * in a database prepared without reports, as bench:restart's) is a run's.
 * Their evidence, marks, insight rows and feedback go with them (foreign keys, statement
 * triggers keep the report counters), then the image files nothing points at any more, and the
 * outbox, where the build queues nothing. A database whose last prepared session is not where
 * it should be is left as it is.
 */
async function removeRunsReports(db: Db, size: DataSize): Promise<void> {
  const last =
    size.reports === 0
      ? null
      : await db.query<{ id: number }>(
          'select id from simulation_sessions where uuid = md5($1)::uuid',
          [`bench-session-${size.reports}`],
        );
  const lastId = last ? last.rows[0]?.id : 0;
  if (lastId === undefined) {
    log('  kept earlier runs’ reports: the last prepared session was not found');
    return;
  }
  await db.transaction(async (tx) => {
    await tx.query('delete from simulation_sessions where id > $1', [lastId]);
    await tx.query(
      `delete from files f
        where f.kind = 'evidence-image'
          and not exists (select 1 from evidence e where e.image_file_id = f.id)`,
    );
    await tx.query('delete from outbox');
  });
}

/** 'same' = prepared by the bench with these sizes; 'other' = by the bench with other sizes. */
async function preparedState(
  db: Db,
  size: DataSize,
): Promise<'empty' | 'same' | 'other' | 'foreign'> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public'`,
  );
  if (tables.rows.length === 0) return 'empty';
  if (!tables.rows.some((t) => t.name === 'bench_prepared')) return 'foreign';
  const marker = await db.query<{ size: DataSize }>('select size from bench_prepared');
  const stored = marker.rows[0]?.size;
  const same =
    stored !== undefined &&
    (Object.keys(size) as (keyof DataSize)[]).every((k) => stored[k] === size[k]);
  return same ? 'same' : 'other';
}

type Step = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

async function build(db: Db, size: DataSize, step: Step) {
  await step('migrate + seed', async () => {
    await migrate(db);
    await seedReferenceData(db);
    await seedDemoData(db);
  });

  await step('organisations + learners', () =>
    db.transaction(async (tx) => {
      // Copies of Demo Hospital's settings under other names, up to `organisations` in all.
      await tx.query(
        `insert into organisations (name, city, country_id, main_contact, primary_technical_contact,
           learning_management_system_id, default_language_id, radiation_unit_system_id,
           measurement_standard_id)
         select 'Bench Organisation ' || g, o.city, o.country_id, o.main_contact,
                o.primary_technical_contact, o.learning_management_system_id,
                o.default_language_id, o.radiation_unit_system_id, o.measurement_standard_id
           from organisations o, generate_series(1, $1::int - (select count(*)::int from organisations)) g
          where o.name = $2`,
        [size.organisations, BENCH_ORGANISATION],
      );
      // md5 of a fixed text gives stable uuids, so runs with the same options are alike. Learner
      // g belongs to organisation g mod n (Demo Hospital first), so every organisation has its share.
      await tx.query(
        `with orgs as (
                select id, (row_number() over (order by name <> $2, id))::int - 1 as n
                  from organisations)
         insert into users (id, email, first_name, last_name, organisation_id, role_id, language)
         select md5('bench-learner-' || g)::uuid, 'bench-learner-' || g || '@bench.test',
                'Bench', 'Learner ' || g, orgs.id,
                (select id from roles where name = 'learner'), 'en'
           from generate_series(1, $1::int) g
           join orgs on orgs.n = (g - 1) % (select count(*) from orgs)`,
        [size.population, BENCH_ORGANISATION],
      );
      // Launching needs a seat on a current licence that grants the product.
      await tx.query(
        `update license_blocks set number_of_seats = number_of_seats + $1
          where license_name = $2`,
        [size.seated, BENCH_LICENCE],
      );
      await tx.query(
        `insert into license_block_users (license_block_id, user_id)
         select lb.id, u.id from license_blocks lb
           join users u on u.organisation_id = lb.organisation_id
          where lb.license_name = $1 and u.email like 'bench-learner-%@bench.test'
          order by length(u.email), u.email
          limit $2`,
        [BENCH_LICENCE, size.seated],
      );
    }),
  );

  // Round robin over every user and every leaf; one report per minute back from now, so `id desc`
  // and `recorded desc` agree as they do in a real database.
  const owners = `create temporary table bench_owners as
      select id, (row_number() over (order by email))::int - 1 as n from users;
    create temporary table bench_leaves as
      select id, product_id, simulation_configuration,
             (row_number() over (order by id))::int - 1 as n
        from product_categories where simulation_configuration is not null`;
  await db.transaction(async (tx) => {
    // Foreign keys hold by construction here; skipping their per-row triggers for the bulk load
    // saves a third of its time (the report counters' and the migration 0012 sort keys' triggers
    // are `enable always` and still run). `set local` ends with this transaction.
    await tx.exec('set local session_replication_role = replica');
    await tx.exec(owners);
    for (let from = 1; from <= size.reports; from += REPORT_BATCH) {
      const to = Math.min(size.reports, from + REPORT_BATCH - 1);
      const before = await tx.query<{ last: number }>(
        'select coalesce(max(id), 0)::int as last from simulation_sessions',
      );
      await step('reports', () => insertReports(tx, from, to, size.reports));
      await step('evidence', () =>
        insertEvidence(tx, before.rows[0]?.last ?? 0, size.evidencePerReport),
      );
      log(`  ${to} of ${size.reports} reports written`);
    }
    await tx.exec('drop table bench_owners; drop table bench_leaves');
  });

  // Every batch above added to every user's report counter, leaving that many dead versions of
  // the whole table behind (3 186 pages for 50 000 counters, 319 when compact): the organisation
  // scope's count reads all of them on every list page. A database that grew one report at a time
  // never looks like that; compacted, the bench measures the queries rather than the bulk load.
  await step('compact report counters', () => db.exec('vacuum full report_counts'));
  // PGlite runs no autovacuum, and PostgreSQL's would analyse these tables only later: without
  // statistics the planner guesses row counts of an empty table.
  await step('analyze', () => db.exec('vacuum analyze'));
  if (db.kind === 'postgres') {
    await db.query('insert into bench_prepared (size) values ($1)', [JSON.stringify(size)]);
  }
}

async function insertReports(
  tx: Pick<Db, 'query' | 'exec'>,
  from: number,
  to: number,
  total: number,
) {
  await tx.query(
    `insert into simulation_sessions
       (uuid, user_id, product_id, category_id, configuration, mode, token_hash, status,
        report_details, created_at, started_at, completed_at, closed_at)
     select md5('bench-session-' || g)::uuid, o.id, l.product_id, l.id,
            l.simulation_configuration,
            case when g % 3 = 0 then 'VR' else 'Desktop' end,
            encode(sha256(convert_to('bench-session-' || g, 'UTF8')), 'hex'),
            'closed',
            case when g % 5 = 0 then null
                 else jsonb_build_object('summary', '3 images', 'score', g % 101,
                                         'durationSeconds', 240 + g % 600) end,
            t.at, t.at + interval '10 seconds', t.at + interval '6 minutes',
            t.at + interval '7 minutes'
       from generate_series($1::int, $2::int) g
       join bench_owners o on o.n = g % (select count(*) from bench_owners)
       join bench_leaves l on l.n = g % (select count(*) from bench_leaves)
       cross join lateral (select now() - ($3::int - g) * interval '1 minute'
                                  - interval '1 hour' as at) t
      order by g`,
    [from, to, total],
  );
}

/**
 * `perReport` items for every session after id `lastId`; about half of them analysed,
 * so summaries vary. The JSON comes from a few dozen prepared variants: building millions of
 * nested objects row by row would double the time of this step.
 */
async function insertEvidence(tx: Pick<Db, 'query'>, lastId: number, perReport: number) {
  await tx.query(
    `with xray as (
            select v, p.position, jsonb_build_object(
                'meta', jsonb_build_object('type', 'xray_image'),
                'settings', jsonb_build_object(
                  'projection', case p.position % 2 when 0 then 'AP' else 'lateral' end),
                'console', jsonb_build_object('exposureIndex', 300 + v * 4),
                'tube', jsonb_build_object('kV', 55 + v % 30, 'mAs', 4, 'sidCm', 110),
                'dose', jsonb_build_object('dapMGyCm2', 0.2 + v / 100.0)) as data
              from generate_series(0, 49) v cross join generate_series(0, $2::int - 1) p(position)),
          lesson as (
            select p.position, jsonb_build_object(
                'meta', jsonb_build_object('type', 'rs_lesson_part'),
                'settings', jsonb_build_object('shielding', p.position = 1),
                'console', jsonb_build_object('fluoroscopy', 'pulsed'),
                'tube', jsonb_build_object('kV', 80, 'mAs', 2, 'sidCm', 100),
                'dose', jsonb_build_object('dapMGyCm2', 12.5),
                'lesson', jsonb_build_object('id', 'lesson-1', 'index', 0,
                  'partIndex', p.position, 'count', 1, 'partId', 'part-' || p.position,
                  'doseTime', 60, 'doses', jsonb_build_object(
                    'eye', 4.2 / (p.position + 1), 'chest', 6.1 / (p.position + 1),
                    'hip', 3.3 / (p.position + 1)))) as data
              from generate_series(0, $2::int - 1) p(position)),
          sessions as (
            select uuid, id, configuration, started_at, closed_at from simulation_sessions
             where id > $1)
     insert into evidence (session_uuid, position, practice_activity, evidence_data,
                           analysis_status_id, analysis, analysed_at, created_at)
     select s.uuid, x.position,
            s.configuration || ' #' || (x.position + 1),
            case when s.configuration like 'radiation-safety.lesson.%' then l.data
                 else x.data end,
            case (s.id + x.position) % 4 when 0 then 22002 when 1 then 22003 else 22001 end,
            case when (s.id + x.position) % 4 < 2 then 'Reviewed in the bench data set.' end,
            case when (s.id + x.position) % 4 < 2 then s.closed_at end,
            s.started_at + (x.position + 1) * interval '1 minute'
       from sessions s
       join xray x on x.v = s.id % 50
       join lesson l on l.position = x.position`,
    [lastId, perReport],
  );
}
