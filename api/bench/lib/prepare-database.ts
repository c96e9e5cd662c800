import { performance } from 'node:perf_hooks';
import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import { migrate } from '../../src/db/migrate';
import { createPgliteDb } from '../../src/db/pglite-driver';
import { seedDemoData, seedReferenceData } from '../../src/seed/seed';

export const BENCH_ORGANISATION = 'Demo Hospital';
export const BENCH_LICENCE = 'Demo Hospital 2026';
const EDUCATOR_EMAIL = 'educator@demo.test';

export interface BenchUser {
  id: string;
  email: string;
}

export interface PreparedDatabase {
  learners: BenchUser[];
  educator: BenchUser;
  reports: number;
  evidence: number;
  /** Seconds spent on each step, printed so a slow preparation is visible. */
  timings: Record<string, number>;
}

/**
 * Builds the database the API will open: migrations, reference and demo data exactly as the API
 * seeds them, then `learners` extra learners of Demo Hospital with seats on its licence, and
 * `reports` ended sessions (two evidence items each) spread over those learners and the demo
 * accounts. Bulk SQL (generate_series) keeps 100 000 reports well under a minute.
 */
export async function prepareDatabase(
  dir: string,
  options: { learners: number; reports: number },
): Promise<PreparedDatabase> {
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await fn();
    timings[name] = (performance.now() - started) / 1000;
    return result;
  };

  const db = await createPgliteDb(dir);
  try {
    await step('migrate + seed', async () => {
      await migrate(db);
      await seedReferenceData(db);
      await seedDemoData(db);
    });

    await step('learners', () =>
      db.transaction(async (tx) => {
        // md5 of a fixed text gives stable uuids, so runs with the same options are alike.
        await tx.query(
          `insert into users (id, email, first_name, last_name, organisation_id, role_id, language)
           select md5('bench-learner-' || g)::uuid, 'bench-learner-' || g || '@bench.test',
                  'Bench', 'Learner ' || g,
                  (select id from organisations where name = $2),
                  (select id from roles where name = 'learner'), 'en'
             from generate_series(1, $1::int) g`,
          [options.learners, BENCH_ORGANISATION],
        );
        // Launching needs a seat on a current licence that grants the product.
        await tx.query(
          `update license_blocks set number_of_seats = number_of_seats + $1
            where license_name = $2`,
          [options.learners, BENCH_LICENCE],
        );
        await tx.query(
          `insert into license_block_users (license_block_id, user_id)
           select lb.id, u.id from license_blocks lb, users u
            where lb.license_name = $1 and u.email like 'bench-learner-%@bench.test'`,
          [BENCH_LICENCE],
        );
      }),
    );

    await step('reports + evidence', () =>
      db.transaction(async (tx) => {
        const before = await tx.query<{ last: number }>(
          'select coalesce(max(id), 0)::int as last from simulation_sessions',
        );
        const lastId = before.rows[0]?.last ?? 0;
        // Foreign keys hold by construction here; skipping their per-row triggers for the bulk
        // load saves a third of its time. `set local` ends with this transaction.
        await tx.exec('set local session_replication_role = replica');
        // Round-robin over every user and every leaf; one report per 5 minutes back from now,
        // so `id desc` and `recorded desc` agree as they do in a real database.
        await tx.query(
          `with owners as (
                  select id, (row_number() over (order by email))::int - 1 as n from users),
                leaves as (
                  select id, product_id, simulation_configuration,
                         (row_number() over (order by id))::int - 1 as n
                    from product_categories where simulation_configuration is not null)
           insert into simulation_sessions
             (uuid, user_id, product_id, category_id, configuration, mode, token_hash, status,
              report_details, created_at, started_at, completed_at, closed_at)
           select md5('bench-session-' || g)::uuid, o.id, l.product_id, l.id,
                  l.simulation_configuration,
                  case when g % 3 = 0 then 'VR' else 'Desktop' end,
                  encode(sha256(convert_to('bench-session-' || g, 'UTF8')), 'hex'),
                  'closed',
                  case when g % 5 = 0 then null
                       else jsonb_build_object('summary', '2 images', 'score', g % 101,
                                               'durationSeconds', 240 + g % 600) end,
                  t.at, t.at + interval '10 seconds', t.at + interval '6 minutes',
                  t.at + interval '7 minutes'
             from generate_series(1, $1::int) g
             join owners o on o.n = g % (select count(*) from owners)
             join leaves l on l.n = g % (select count(*) from leaves)
             cross join lateral (select now() - ($1::int - g) * interval '5 minutes'
                                        - interval '1 hour' as at) t
            order by g`,
          [options.reports],
        );
        // Two items per report; about half of them analysed, so summaries vary. The JSON comes
        // from a few dozen prepared variants: building 200 000 nested objects row by row would
        // double the time of this step.
        await tx.query(
          `with xray as (
                  select v, p.position, jsonb_build_object(
                      'meta', jsonb_build_object('type', 'xray_image'),
                      'settings', jsonb_build_object(
                        'projection', case p.position when 0 then 'AP' else 'lateral' end),
                      'console', jsonb_build_object('exposureIndex', 300 + v * 4),
                      'tube', jsonb_build_object('kV', 55 + v % 30, 'mAs', 4, 'sidCm', 110),
                      'dose', jsonb_build_object('dapMGyCm2', 0.2 + v / 100.0)) as data
                    from generate_series(0, 49) v cross join generate_series(0, 1) p(position)),
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
                    from generate_series(0, 1) p(position))
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
             from simulation_sessions s
             join xray x on x.v = s.id % 50
             join lesson l on l.position = x.position
            where s.id > $1`,
          [lastId],
        );
      }),
    );

    // PGlite runs no autovacuum: without statistics the planner guesses row counts of an
    // empty table. A server that had grown to this size would have been analysed long since.
    await step('analyze', () => db.exec('analyze'));

    const learners = await db.query<BenchUser>(
      `select id, email from users where email like 'bench-learner-%@bench.test'
        order by length(email), email`,
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
      timings,
    };
  } finally {
    await db.close();
  }
}
