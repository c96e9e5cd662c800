import { parseArgs } from 'node:util';
import { DEMO_ORGANISATION_COUNT } from '../../src/demo/seed-demo-data';

export interface BenchOptions {
  learners: number;
  /** Seconds measured, after the warm-up. */
  duration: number;
  /** Seconds run before measuring; null = one session cycle and SETTLE_SECONDS (warmupSeconds). */
  warmup: number | null;
  reports: number;
  /** Seconds from session creation until the simulator completes it. */
  sessionSeconds: number;
  evidence: number;
  /** Pause between reading a report and starting the next session. */
  thinkSeconds: number;
  /** Learner-report list requests per second from the educator. */
  educatorRate: number;
  /**
   * One bare-route request per this many session-status polls, on the same schedule. 1 = every
   * poll; the default 10 still gives thousands of samples a run (for the p99) without the probe
   * taking a seventh of the machine (generator and bare server together) from what it measures.
   */
  bareEvery: number;
  /**
   * Keep-alive connections shared by the educator (to the API) and by the bare route's calls
   * (default: one per learner, at most 1 024). Each learner's browser has two of its own and its
   * simulator one (load.ts): 128 shared by 1 000 learners queued every poll behind slow calls in
   * the generator, and a shared pool opened bursts of new connections mid-run, neither of which a
   * browser does.
   */
  connections: number;
  json: boolean;
  /** Write a CPU profile of the API process and print where its time went. */
  profile: boolean;
  /** Leave the temp folder (database, files, profile) in place. */
  keep: boolean;
  /**
   * Production rate limits on (RATE_LIMIT_ENABLED, default budgets): every signed-in request
   * then also reads and counts its budgets (batched statements on PostgreSQL). Off by default,
   * as the figures of issue #24 point 5 were measured.
   */
  rateLimits: boolean;
  /** PostgreSQL to run the API against (127.0.0.1 only); null = PGlite in a temp folder. */
  databaseUrl: string | null;
  /** Drop and prepare the PostgreSQL data again even when it is already there. */
  rebuild: boolean;
  /** Learners in the database (the simulated ones are `learners` of them). */
  population: number;
  /** Organisations in the database, the demo ones included (DEMO_ORGANISATION_COUNT). */
  organisations: number;
  evidencePerReport: number;
  /** Each list probe runs this long, open loop at `listRate` requests per second. */
  listSeconds: number;
  listRate: number;
  /** Seconds of closed-loop whoami (and bare route) at `saturationConnections` connections. */
  saturationSeconds: number;
  saturationConnections: number;
  /** API_INSTANCES of each run, in order: `--instances 1,2` runs the whole bench once per count. */
  instances: number[];
  /**
   * Every process as the shell started it: the generator's wake-ups preempt the servers, and the
   * servers share the bench's session (lib/scheduling.ts). For comparison with earlier runs.
   */
  plainScheduling: boolean;
}

export const USAGE = `Usage: pnpm bench:api -- [options]

  --learners N          simulated learners, each with its own token (default 500)
  --duration S          measured seconds (default 30)
  --warmup S            seconds run before measuring, not counted (default: one session
                        cycle, session + think seconds, while first sessions ramp up, and
                        15 s for the step in load as the first sessions end)
  --reports N           ended sessions (reports) in the database before the run (default 100000)
  --session-seconds S   session creation → simulator completes (default 60)
  --evidence N          images the headless simulator submits per session (default 2)
  --think-seconds S     pause after reading a report before the next session (default 1)
  --educator-rate R     GET /report/learner per second by an educator (default 2)
  --bare-every N        call the bare route once per N session-status polls, on their
                        schedule (default 10; 1 = with every poll)
  --connections N       keep-alive connections shared by the educator and by the bare route's
                        calls (default: one per learner, at most 1024); each learner's browser
                        has two of its own, its simulator one
  --json                print the results as JSON instead of tables
  --profile             CPU-profile the API process and print its hottest functions
  --keep                keep the temp folder (database, stored files, profile)
  --rate-limits         run the API with its production rate limits (default: off)

  --database-url URL    run the API against this PostgreSQL (127.0.0.1 only; a dedicated
                        database: the bench fills it and reuses it on later runs with the same
                        sizes). Defaults change to --reports 1000000 --population 50000
                        --organisations 20 --learners 1000
  --rebuild             prepare the PostgreSQL data again even if it is already there
  --population N        learners in the database (default: ${DEMO_ORGANISATION_COUNT} × --learners on
                        PGlite)
  --organisations N     organisations, the ${DEMO_ORGANISATION_COUNT} demo ones included (default
                        ${DEMO_ORGANISATION_COUNT} on PGlite)
  --evidence-per-report N  evidence items of each prepared report (default 3)
  --list-seconds S      seconds per report-list probe after the load (default 15: 300 requests,
                        so a p99 is not just the second-slowest request; 0 = none)
  --list-rate R         requests per second of each list probe (default 20)
  --saturation-seconds S  closed-loop whoami and bare route, each (default 5, 0 = none)
  --saturation-connections N  connections of the closed loop (default 64)
  --instances N[,M…]    API_INSTANCES of the API (node cluster on one port); a list runs the
                        bench once per count and prints each, e.g. 1,2 (default 1)
  --plain-scheduling    run the generator and the servers as the shell started them: by default
                        the generator is a SCHED_BATCH task (its wake-ups preempt no server, as
                        a client on another machine) and each server has a session of its own
                        (as a service manager gives each service its own group)
  --help`;

function positive(
  name: string,
  text: string | undefined,
  fallback: number,
  integer = true,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a ${integer ? 'whole ' : ''}number ≥ 0, got "${text}"`);
  }
  return value;
}

export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  // `pnpm bench:api -- --x` passes the `--` through; it is not an end-of-options marker here.
  const args = argv.filter((a) => a !== '--');
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      learners: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      reports: { type: 'string' },
      'session-seconds': { type: 'string' },
      evidence: { type: 'string' },
      'think-seconds': { type: 'string' },
      'educator-rate': { type: 'string' },
      'bare-every': { type: 'string' },
      connections: { type: 'string' },
      json: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'rate-limits': { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      population: { type: 'string' },
      organisations: { type: 'string' },
      'evidence-per-report': { type: 'string' },
      'list-seconds': { type: 'string' },
      'list-rate': { type: 'string' },
      'saturation-seconds': { type: 'string' },
      'saturation-connections': { type: 'string' },
      instances: { type: 'string' },
      'plain-scheduling': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const databaseUrl = values['database-url'] ?? null;
  if (databaseUrl !== null) loopbackOnly(databaseUrl);
  const postgres = databaseUrl !== null;
  const learners = positive('learners', values.learners, postgres ? 1000 : 500);
  const options: BenchOptions = {
    learners,
    duration: positive('duration', values.duration, 30, false),
    warmup: values.warmup === undefined ? null : positive('warmup', values.warmup, 0, false),
    reports: positive('reports', values.reports, postgres ? 1_000_000 : 100_000),
    sessionSeconds: positive('session-seconds', values['session-seconds'], 60, false),
    evidence: positive('evidence', values.evidence, 2),
    thinkSeconds: positive('think-seconds', values['think-seconds'], 1, false),
    educatorRate: positive('educator-rate', values['educator-rate'], 2, false),
    bareEvery: positive('bare-every', values['bare-every'], 10),
    connections: positive('connections', values.connections, Math.min(Math.max(learners, 1), 1024)),
    json: values.json ?? false,
    profile: values.profile ?? false,
    keep: values.keep ?? false,
    rateLimits: values['rate-limits'] ?? false,
    databaseUrl,
    rebuild: values.rebuild ?? false,
    population: positive(
      'population',
      values.population,
      postgres ? 50_000 : DEMO_ORGANISATION_COUNT * learners,
    ),
    organisations: positive(
      'organisations',
      values.organisations,
      postgres ? 20 : DEMO_ORGANISATION_COUNT,
    ),
    evidencePerReport: positive('evidence-per-report', values['evidence-per-report'], 3),
    listSeconds: positive('list-seconds', values['list-seconds'], 15, false),
    listRate: positive('list-rate', values['list-rate'], 20, false),
    saturationSeconds: positive('saturation-seconds', values['saturation-seconds'], 5, false),
    saturationConnections: positive('saturation-connections', values['saturation-connections'], 64),
    instances: instanceCounts(values.instances),
    plainScheduling: values['plain-scheduling'] ?? false,
  };
  // The seed makes the demo ones whatever is asked; fewer would spread the learners over more
  // organisations than the check below counts.
  if (options.organisations < DEMO_ORGANISATION_COUNT) {
    throw new Error(
      `--organisations counts the ${DEMO_ORGANISATION_COUNT} demo ones: at least ${DEMO_ORGANISATION_COUNT}`,
    );
  }
  // Learner g belongs to organisation g mod n; the simulated ones are Demo Hospital's.
  if (options.learners > Math.floor(options.population / options.organisations)) {
    throw new Error(
      `--learners ${options.learners} is more than Demo Hospital's share of --population ` +
        `(${options.population} / ${options.organisations} organisations)`,
    );
  }
  if (options.listSeconds > 0 && options.listRate <= 0)
    throw new Error('--list-rate must be more than 0');
  if (options.bareEvery < 1) throw new Error('--bare-every must be at least 1');
  if (options.saturationConnections < 1)
    throw new Error('--saturation-connections must be at least 1');
  if (options.learners < 1) throw new Error('--learners must be at least 1');
  if (options.duration <= 0) throw new Error('--duration must be more than 0');
  if (options.connections < 1) throw new Error('--connections must be at least 1');
  if (options.sessionSeconds < 2) throw new Error('--session-seconds must be at least 2');
  return options;
}

function instanceCounts(text: string | undefined): number[] {
  if (text === undefined) return [1];
  const counts = text.split(',').map((part) => Number(part.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16)) {
    throw new Error(
      `--instances must be whole numbers from 1 to 16, comma-separated, got "${text}"`,
    );
  }
  return counts;
}

/** The bench only ever talks to this machine: a URL to anywhere else is refused. */
function loopbackOnly(url: string) {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error(`--database-url is not a URL: "${url}"`);
  }
  if (!/^postgres(ql)?:$/.test(new URL(url).protocol)) {
    throw new Error('--database-url must be a postgres:// URL');
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    throw new Error(`--database-url must point at 127.0.0.1, not ${host}`);
  }
}

/**
 * Seconds of the default warm-up after the first cycle. The first sessions end one cycle into the
 * load, and completions, closes and report reads join the polls in that second: a step, not a
 * ramp, and the backlog it left kept the API's thread busy for about 3 s in a profiled run
 * (api/README, "Latency against the machine's own floor"). The window measures the steady load
 * after it; it opened on the step before.
 */
export const SETTLE_SECONDS = 15;

export function warmupSeconds(options: BenchOptions): number {
  return options.warmup ?? options.sessionSeconds + options.thinkSeconds + SETTLE_SECONDS;
}
