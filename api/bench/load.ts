/**
 * API load benchmark (issue #3 item 7, issue #11 points 4 and 5): N simulated learners run the
 * portal's learner loop against the real API process on PGlite or PostgreSQL, beside a bare
 * Fastify route measured in the same run; then each report list (pages, orderings, filter) is
 * probed alone, and whoami and the bare route are driven to saturation. Prints throughput and
 * p50/p95/p99 latency per route and the targets as PASS/MISS.
 *
 *   pnpm bench:api -- --learners 500 --duration 30 --reports 100000
 *   pnpm bench:api -- --database-url postgres://portal:portal@127.0.0.1:5432/portal_bench
 *
 * Latency is counted from when a request was *due* (open loop), so time spent waiting for a
 * connection or for a late timer is charged to the request rather than silently skipped.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { summariseProfile, profileText, type ProfileSummary } from './lib/cpu-profile';
import { cpuSnapshot, cpuSplit, cpuSplitText, type CpuSplit } from './lib/cpu-split';
import { HttpTarget } from './lib/http-client';
import { BenchIdentity } from './lib/identity';
import { parseOptions, USAGE, warmupSeconds, type BenchOptions } from './lib/options';
import { benchImagePng } from './lib/png';
import {
  prepareDatabase,
  type DatabaseTarget,
  type PreparedDatabase,
} from './lib/prepare-database';
import { PROBES, runProbes, saturate } from './lib/probes';
import { firstLine, freePort, spawnTs, stop, waitHealthy, type Child } from './lib/processes';
import { arrangeScheduling, scheduling } from './lib/scheduling';
import {
  judge,
  judgeRelative,
  judgeSaturation,
  relativeTargetTable,
  routeTable,
  saturationText,
  sortRoutes,
  targetTable,
  type RelativeTargetResult,
  type SaturationResult,
} from './lib/results';
import {
  scrapeApi,
  waitForInstances,
  windowFigures,
  windowText,
  type WindowFigures,
} from './lib/api-window';
import {
  calibrate,
  COOKIE,
  Learner,
  ROUTES,
  startEducator,
  type ScenarioContext,
} from './lib/scenario';
import { Recorder } from './lib/stats';
import { API_NODE_FLAGS } from '../src/node-flags';

const API_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The API takes this long to open a 100 000-report database and seed it on a busy machine. */
const API_START_TIMEOUT_MS = 180_000;
const DRAIN_TIMEOUT_MS = 15_000;
/** How long after the load the API may take to work off what was queued in it. */
const IDLE_TIMEOUT_MS = 120_000;
/** `/healthz` answering within this, three times in a row, counts as idle. */
const IDLE_LATENCY_MS = 20;
const CALIBRATION_ROUNDS = 30;
/** The API's /metrics and the machine's CPU are read this long before the window opens. */
const READ_LEAD_MS = 1_000;
/** Whatever happens (a wedged server, a slow preparation), the bench ends within this. */
const RUN_LIMIT_MS = 60 * 60_000;

const log = (text: string) => process.stderr.write(`${text}\n`);

/** Everything the run started, so any exit path (error, SIGINT) takes it down again. */
const started: {
  children: Child[];
  identity: BenchIdentity | null;
  targets: HttpTarget[];
  dir: string | null;
  keep: boolean;
} = {
  children: [],
  identity: null,
  targets: [],
  dir: null,
  keep: false,
};

async function cleanUp() {
  for (const target of started.targets) target.close();
  await Promise.all(started.children.map((child) => stop(child)));
  started.children = [];
  await started.identity?.close();
  started.identity = null;
  if (started.dir && !started.keep) await rm(started.dir, { recursive: true, force: true });
  started.dir = null;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`\n${signal}: stopping the servers and removing the temp folder…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Deterministic per learner, so two runs with the same options pick the same leaves. */
function seeded(seed: number): () => number {
  let state = seed * 2654435761 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

/** A learner's browser polls whoami and the session's status at the same moment: two connections. */
const BROWSER_CONNECTIONS = 2;

/** Lets the bench read the API's own /metrics (event-loop delay, statement times). */
const METRICS_TOKEN = `bench-${process.pid}-${Date.now()}`;

async function startServers(
  options: BenchOptions,
  instances: number,
  dir: string,
  profileDir: string,
) {
  const identity = await BenchIdentity.start();
  started.identity = identity;

  const apiPort = await freePort();
  const api = spawnTs('api', 'src/server.ts', {
    cwd: API_ROOT,
    nodeArgs: [
      ...API_NODE_FLAGS,
      ...(options.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
    ],
    env: {
      ...process.env,
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
      PGLITE_DIR: join(dir, 'pglite'),
      STORAGE_DIR: join(dir, 'files'),
      // Empty = unset (config.ts): without --database-url the bench measures PGlite even when the
      // shell points at PostgreSQL.
      DATABASE_URL: options.databaseUrl ?? '',
      OIDC_ISSUER: identity.issuer,
      OIDC_CLIENT_ID: 'frontend',
      SEED_DEMO: 'true',
      // The bench measures the API's capacity: its learners' pace is the scenario's, within the
      // default per-user budgets; --rate-limits counts them as production does.
      RATE_LIMIT_ENABLED: String(options.rateLimits),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // node cluster on one port (src/instances.ts); the cluster's primary hands out connections.
      API_INSTANCES: String(instances),
      METRICS_TOKEN,
    },
  });
  started.children.push(api);

  const bare = spawnTs('bare', 'bench/bare-server.ts', {
    cwd: API_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  started.children.push(bare);
  const barePort = Number((JSON.parse(await firstLine(bare)) as { port: string }).port);

  await waitHealthy(api, apiPort, '/healthz', API_START_TIMEOUT_MS);
  if (!(await waitForInstances(apiPort, METRICS_TOKEN, instances, API_START_TIMEOUT_MS))) {
    throw new Error(
      `Not all ${instances} API instances answered within ${API_START_TIMEOUT_MS / 1000} s`,
    );
  }
  return { apiPort, barePort, identity };
}

/** Waits until `/healthz` answers promptly three times in a row; false on timeout. */
async function waitIdle(api: HttpTarget, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  let prompt = 0;
  while (performance.now() < deadline) {
    const at = performance.now();
    const ok = await api
      .call('idle check', at, { method: 'GET', path: '/healthz', expect: [200] })
      .then(() => true)
      .catch(() => false);
    prompt = ok && performance.now() - at < IDLE_LATENCY_MS ? prompt + 1 : 0;
    if (prompt >= 3) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Whether the report routes exist yet (they are developed alongside this bench). */
async function probeReports(api: HttpTarget, bearer: string): Promise<boolean> {
  try {
    await api.call(ROUTES.reportList, performance.now(), {
      method: 'GET',
      path: '/api/v1/report?page=1',
      headers: { authorization: bearer },
      expect: [200],
    });
    return true;
  } catch {
    return false;
  }
}

interface RunResult {
  options: BenchOptions;
  /** API_INSTANCES of this run. */
  instances: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    /** 1-minute load average before the load and at its end: other work competing for the CPUs. */
    loadAverage: { before: number; after: number };
    /** How the generator and the servers were scheduled (lib/scheduling.ts). */
    scheduling: string;
  };
  database: Omit<PreparedDatabase, 'learners' | 'educator'> & {
    learners: number;
    kind: 'PGlite' | 'PostgreSQL';
  };
  reportsAvailable: boolean;
  routes: ReturnType<Recorder['routes']>;
  /** The calibration pass: each route alone, one request at a time. */
  unloaded: ReturnType<Recorder['routes']>;
  /** Each report list alone at a fixed rate, after the load. */
  probes: ReturnType<Recorder['routes']>;
  saturation: SaturationResult | null;
  targets: ReturnType<typeof judge>;
  /** Issue #24 point 5: whoami and session status as multiples of the bare route's p99. */
  relativeTargets: RelativeTargetResult[];
  /** What one API instance reported on /metrics over the measured window (null if unreadable). */
  apiWindow: WindowFigures | null;
  /** The machine's CPU over the window by part (null off Linux). */
  cpu: CpuSplit | null;
  generator: { sendLagMs: ReturnType<Recorder['lag']>; abandonedCycles: number };
  profile: ProfileSummary | null;
  notes: string[];
}

async function run(options: BenchOptions, instances: number): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-api-bench-'));
  started.dir = dir;
  started.keep = options.keep;
  const profileDir = join(dir, 'profile');
  await mkdir(profileDir, { recursive: true });

  const target: DatabaseTarget = options.databaseUrl
    ? { kind: 'postgres', url: options.databaseUrl }
    : { kind: 'pglite', dir: join(dir, 'pglite') };
  log(
    `Preparing ${target.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${dir}`}: ` +
      `${options.organisations} organisations, ${options.population} learners, ` +
      `${options.reports} reports × ${options.evidencePerReport} evidence…`,
  );
  const prepared = await prepareDatabase(
    target,
    {
      population: options.population,
      organisations: options.organisations,
      reports: options.reports,
      evidencePerReport: options.evidencePerReport,
      seated: options.learners,
    },
    options.rebuild,
  );
  const prepSeconds = Object.values(prepared.timings).reduce((a, b) => a + b, 0);
  log(
    `  ${prepared.built ? 'ready' : 'reused (--rebuild to prepare it again)'} in ` +
      `${prepSeconds.toFixed(1)} s (${prepared.reports} reports, ${prepared.evidence} evidence)`,
  );

  log(
    `Starting the JWKS server, the API (API_INSTANCES=${instances}) and the bare Fastify server…`,
  );
  const { apiPort, barePort, identity } = await startServers(options, instances, dir, profileDir);

  const tokenTtl = Math.ceil(warmupSeconds(options) + options.duration) + 600;
  const bearers = await Promise.all(
    prepared.learners.map(async (u) => `Bearer ${await identity.token(u.id, u.email, tokenTtl)}`),
  );
  const educatorBearer = `Bearer ${await identity.token(prepared.educator.id, prepared.educator.email, tokenTtl)}`;

  // The calibration pass records into its own recorder; the load's window starts after it.
  const calibration = new Recorder(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  // Each learner's browser and simulator keep connections of their own, as real ones do; the
  // educator and the probes share a pool.
  const api = new HttpTarget(
    '127.0.0.1',
    apiPort,
    calibration,
    options.connections,
    BROWSER_CONNECTIONS,
  );
  const simulator = new HttpTarget('127.0.0.1', apiPort, calibration, options.connections, 1);
  const bare = new HttpTarget('127.0.0.1', barePort, calibration, options.connections);
  started.targets.push(api, simulator, bare);

  const reportsAvailable = await probeReports(api, bearers[0]!);
  const notes: string[] = [];
  if (!reportsAvailable) {
    notes.push(
      'The API has no report routes (GET /api/v1/report answered no 200): reports were not read.',
    );
  }

  const ctx: ScenarioContext = {
    api,
    simulator,
    bare,
    stopAt: Number.POSITIVE_INFINITY,
    sessionMs: options.sessionSeconds * 1000,
    thinkMs: options.thinkSeconds * 1000,
    evidencePerSession: options.evidence,
    bareEvery: options.bareEvery,
    statusPolls: { count: 0 },
    image: benchImagePng(),
    reportsAvailable,
    abandoned: { count: 0 },
  };

  log(`Calibration: every route ${CALIBRATION_ROUNDS} times, one request at a time…`);
  await calibrate(
    ctx,
    bearers.slice(0, CALIBRATION_ROUNDS).map((bearer, i) => new Learner(ctx, bearer, seeded(i))),
    educatorBearer,
    CALIBRATION_ROUNDS,
  );

  const loadBefore = loadavg()[0] ?? 0;
  const begin = performance.now() + 500;
  const windowStart = begin + warmupSeconds(options) * 1000;
  const stopAt = windowStart + options.duration * 1000;
  const recorder = new Recorder(windowStart, stopAt);
  api.recorder = recorder;
  simulator.recorder = recorder;
  bare.recorder = recorder;
  ctx.stopAt = stopAt;

  log(
    `Load: ${warmupSeconds(options)} s warm-up + ${options.duration} s measured, ` +
      `${options.learners} learners, educator ${options.educatorRate}/s…`,
  );
  // Sign-ins spread over a second; first sessions over one whole cycle, so that sessions are in
  // every phase (launch, images, report) at any moment instead of all learners in step.
  const cycleMs = (options.sessionSeconds + options.thinkSeconds) * 1000;
  bearers.forEach((bearer, i) => {
    const share = i / bearers.length;
    new Learner(ctx, bearer, seeded(i + 1)).start(begin + share * 1000, begin + share * cycleMs);
  });
  startEducator(ctx, educatorBearer, options.educatorRate, begin);

  // /metrics read just before the window opens and as it closes: the event-loop delay histogram
  // restarts at every read (prom-client), and the statement histograms are subtracted. A read
  // costs the API's thread about 20 ms at 1 000 learners (a profiled run); at the window's first
  // instant it was a stall inside what it measures.
  const readAt = windowStart - READ_LEAD_MS;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readAt - performance.now())));
  const parts = {
    API: started.children.find((c) => c.name === 'api')?.process.pid,
    'load generator': process.pid,
    'bare server': started.children.find((c) => c.name === 'bare')?.process.pid,
  };
  const cpuStart = cpuSnapshot(parts);
  const scrapeStart = await scrapeApi(apiPort, METRICS_TOKEN);
  const readStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, stopAt - performance.now())));
  const cpuEnd = cpuSnapshot(parts);
  const scrapeEnd = scrapeStart && (await scrapeApi(apiPort, METRICS_TOKEN, scrapeStart));
  const readSeconds = (performance.now() - readStart) / 1000;
  const apiWindow =
    scrapeStart && scrapeEnd ? windowFigures(scrapeStart, scrapeEnd, readSeconds) : null;
  const loadAfter = loadavg()[0] ?? 0;
  const drainUntil = performance.now() + DRAIN_TIMEOUT_MS;
  const inFlight = () => api.inFlight + simulator.inFlight + bare.inFlight;
  while (inFlight() > 0 && performance.now() < drainUntil) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (inFlight() > 0) {
    notes.push(
      `${inFlight()} requests were still unanswered ${DRAIN_TIMEOUT_MS / 1000} s ` +
        'after the run; their connections were then closed (the "socket hang up" errors).',
    );
  }

  // Requests the loop left queued in the API (when it could not keep up) must not be charged to
  // the probes: their connections are dropped, and the probes wait until the API answers promptly.
  api.close();
  simulator.close();
  bare.close();
  // Records nothing until a probe gives it its recorder.
  const nowhere = new Recorder(Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY);
  const probeApi = new HttpTarget('127.0.0.1', apiPort, nowhere, options.connections);
  started.targets.push(probeApi);
  const idle = await waitIdle(probeApi, IDLE_TIMEOUT_MS);
  if (!idle) notes.push(`The API was still busy ${IDLE_TIMEOUT_MS / 1000} s after the load.`);

  let probes: ReturnType<Recorder['routes']> = [];
  if (options.listSeconds > 0 && reportsAvailable) {
    log(`Report lists, each alone: ${options.listRate}/s for ${options.listSeconds} s…`);
    const probed = await runProbes(
      {
        api: probeApi,
        educatorBearer,
        learnerBearers: bearers,
        learnerNumbers: prepared.learners.map((u) => Number(/\d+/.exec(u.email)?.[0] ?? 0)),
        seconds: options.listSeconds,
        rate: options.listRate,
        waitIdle: () => waitIdle(probeApi, IDLE_TIMEOUT_MS),
      },
      log,
    );
    probes = probed.stats;
    notes.push(...probed.notes);
  }

  let saturation: SaturationResult | null = null;
  if (options.saturationSeconds > 0) {
    log(
      `Saturation: whoami, then the bare route, closed loop over ` +
        `${options.saturationConnections} connections, ${options.saturationSeconds} s each…`,
    );
    const apiPool = new HttpTarget('127.0.0.1', apiPort, nowhere, options.saturationConnections);
    const barePool = new HttpTarget('127.0.0.1', barePort, nowhere, options.saturationConnections);
    started.targets.push(apiPool, barePool);
    if (!(await waitIdle(probeApi, IDLE_TIMEOUT_MS))) {
      notes.push(`The API was still busy ${IDLE_TIMEOUT_MS / 1000} s after the list probes.`);
    }
    const apiStats = await saturate(
      apiPool,
      PROBES.saturationApi,
      (i) => ({
        method: 'GET',
        path: '/api/v1/user/whoami',
        // With the XSRF cookie, as every browser call after the first (and the load above) sends
        // it: without it the API makes and sets a new cookie on every call, which measured
        // 100–200 µs of the API's CPU per whoami against 70–90 µs with it (bare route: 40–60).
        headers: { authorization: bearers[i % bearers.length]!, ...COOKIE },
        expect: [200],
      }),
      options.saturationConnections,
      options.saturationSeconds,
    );
    const bareStats = await saturate(
      barePool,
      PROBES.saturationBare,
      () => ({ method: 'GET', path: '/bare', expect: [200] }),
      options.saturationConnections,
      options.saturationSeconds,
    );
    saturation = judgeSaturation(apiStats, bareStats);
  }

  for (const target of started.targets) target.close();
  started.targets = [];
  // Stopping the API ends its CPU profile, which is written on exit.
  await Promise.all(started.children.map((child) => stop(child)));
  started.children = [];
  const profile = options.profile ? await summariseProfile(profileDir) : null;
  if (options.profile && options.keep) notes.push(`Profile kept in ${profileDir}.`);

  const { learners: _learners, educator: _educator, ...database } = prepared;
  const routes = recorder.routes();
  const cpu = cpuStart && cpuEnd ? cpuSplit(cpuStart, cpuEnd) : null;
  return {
    options,
    instances,
    machine: {
      cpus: availableParallelism(),
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage: { before: loadBefore, after: loadAfter },
      scheduling: scheduling().description,
    },
    database: {
      ...database,
      learners: prepared.learners.length,
      kind: options.databaseUrl ? 'PostgreSQL' : 'PGlite',
    },
    reportsAvailable,
    routes: sortRoutes(recorder.routes()),
    unloaded: sortRoutes(calibration.routes()),
    probes,
    saturation,
    targets: judge([...routes, ...probes]),
    relativeTargets: judgeRelative(routes, cpu?.other ?? null),
    apiWindow,
    cpu,
    generator: { sendLagMs: recorder.lag(), abandonedCycles: ctx.abandoned.count },
    profile,
    notes,
  };
}

function print(result: RunResult) {
  const { options: o, machine: m, database: d } = result;
  const lines = [
    '',
    `API load benchmark — ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, ${d.kind}, ` +
      `API_INSTANCES=${result.instances}`,
    `${o.learners} learners, ${o.duration} s measured after ${warmupSeconds(o)} s warm-up; session ${o.sessionSeconds} s ` +
      `with ${o.evidence} images, think ${o.thinkSeconds} s; educator ${o.educatorRate}/s; ` +
      `${BROWSER_CONNECTIONS} connections per learner's browser and one per simulator, ` +
      `${o.connections} shared for the educator and the bare route; ` +
      `the bare route with ${o.bareEvery === 1 ? 'every status poll' : `one status poll in ${o.bareEvery}`}`,
    `database: ${o.organisations} organisations, ${o.population} learners, ${d.reports} reports, ` +
      `${d.evidence} evidence, ${d.learners} simulated learners ` +
      `(${d.built ? 'prepared' : 'reused; checked'} in ${Object.entries(d.timings)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(', ')})`,
    `1-minute load average of the machine: ${m.loadAverage.before.toFixed(2)} before the load, ` +
      `${m.loadAverage.after.toFixed(2)} at its end ` +
      `(the bench's own processes included; above ${m.cpus}, tasks wait for a CPU)`,
    m.scheduling,
    'latency = response received − time the request was due (open loop, no coordinated omission); ' +
      '"alone p50" = the route with nothing else in flight (calibration pass)',
    '',
    routeTable(result.routes, result.unloaded, true),
    '',
    ...(result.apiWindow ? [windowText(result.apiWindow, result.instances), ''] : []),
    ...(result.cpu ? [cpuSplitText(result.cpu), ''] : []),
    ...(result.probes.length > 0
      ? [
          `report lists alone (educator = organisation scope, ${o.listRate}/s for ${o.listSeconds} s each):`,
          routeTable(result.probes, []),
          '',
        ]
      : []),
    ...(result.saturation ? [saturationText(result.saturation), ''] : []),
    `generator send lag (due → sent): p50 ${result.generator.sendLagMs.p50.toFixed(2)} ms, ` +
      `p99 ${result.generator.sendLagMs.p99.toFixed(2)} ms, max ${result.generator.sendLagMs.max.toFixed(1)} ms; ` +
      `learner cycles abandoned after an error: ${result.generator.abandonedCycles}`,
    '',
    targetTable(result.targets),
    '',
    relativeTargetTable(result.relativeTargets),
  ];
  for (const route of result.routes.filter((r) => r.errorSamples.length > 0)) {
    lines.push('', `errors of ${route.route}:`, ...route.errorSamples.map((e) => `  ${e}`));
  }
  if (result.notes.length > 0) lines.push('', ...result.notes.map((n) => `note: ${n}`));
  if (result.profile) lines.push('', profileText(result.profile));
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The issue #24 targets of every run side by side, after the runs' own reports. */
function relativeSummary(results: readonly RunResult[]): string {
  return [
    'Relative targets by API_INSTANCES (p99 over the bare route’s p99 in the same run):',
    ...results.flatMap((r) =>
      r.relativeTargets.map(
        (t) =>
          `  API_INSTANCES=${r.instances}  ${t.name}: ` +
          (t.multiple === null ? '—' : `${t.multiple.toFixed(2)}×`) +
          `  ${t.why ? `${t.verdict} (${t.why})` : t.verdict}`,
      ),
    ),
  ].join('\n');
}

async function main() {
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // Before any server starts: they are started under the layout it sets.
  arrangeScheduling(parsed.plainScheduling);
  setTimeout(() => {
    log(`The bench ran for ${RUN_LIMIT_MS / 60_000} minutes: stopping.`);
    void cleanUp().finally(() => process.exit(2));
  }, RUN_LIMIT_MS).unref();
  const results: RunResult[] = [];
  try {
    // One whole run per instance count, one after another on the same prepared database.
    for (const instances of parsed.instances) {
      const result = await run(parsed, instances);
      results.push(result);
      await cleanUp();
      if (!parsed.json) print(result);
    }
    if (parsed.json) {
      const output = results.length === 1 ? results[0] : results;
      process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    } else if (results.length > 1) {
      process.stdout.write(`\n${relativeSummary(results)}\n`);
    }
  } finally {
    if (!interrupted) await cleanUp();
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
