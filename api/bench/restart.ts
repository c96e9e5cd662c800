/**
 * Rolling restart benchmark (issue #24 point 2): two API instances on one PostgreSQL behind a
 * round-robin proxy that, like a load balancer, sends requests only to instances whose /readyz
 * answers 200. N learners open a session each, poll its status every second and submit evidence
 * through the simulator's session token; meanwhile the instances are restarted one by one
 * (SIGTERM, wait for the exit, start, wait until ready). Prints the requests, the failures (must
 * be 0), evidence submitted against evidence stored (must match) and p50/p99 overall and during
 * the restarts.
 *
 *   pnpm --filter @portal/api bench:restart
 *   pnpm --filter @portal/api bench:restart -- --learners 200 --database-url postgres://…/portal_bench_restart
 *
 * The proxy retries a request on another instance only when its connection failed before the
 * request was sent (refused, or reset before the connect completed), as load balancers do, even for
 * a POST; any error after a byte of the request went out, and any 5xx, counts as a failure. The
 * instance being stopped leaves the rotation as its SIGTERM is sent, as an orchestrator takes a
 * pod out of a service's endpoints: the proxy's fail-open mode never picks it either.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PROBE_MS, startBalancer, type BalancedInstance } from './lib/balancer';
import { HttpTarget, REQUEST_TIMEOUT_MS, UnexpectedResponse } from './lib/http-client';
import { BenchIdentity } from './lib/identity';
import { benchImagePng } from './lib/png';
import { prepareSeatedLearners } from './lib/prepare-database';
import { freePort, spawnTs, stop, waitHealthy, type Child } from './lib/processes';
import { arrangeScheduling } from './lib/scheduling';
import { API_NODE_FLAGS } from '../src/node-flags';
import { HeadlessSimulator, Learner, type OpenSession, type ScenarioContext } from './lib/scenario';
import { percentile, Recorder } from './lib/stats';

const API_ROOT = fileURLToPath(new URL('..', import.meta.url));
const API_START_TIMEOUT_MS = 180_000;
/**
 * The instances' stop: unready but serving this long after the SIGTERM (longer than the probes'
 * threshold × interval + a slow probe, for a load balancer that only probes), then the grace for
 * the requests in flight, which outlasts the client's own timeout: an upload the instance stores
 * is answered before the instance exits, unless the client has given up on it first.
 */
const DRAIN_SECONDS = 5;
const GRACE_SECONDS = DRAIN_SECONDS + Math.ceil(REQUEST_TIMEOUT_MS / 1000) + 5;
const log = (text: string) => process.stderr.write(`${text}\n`);

function options() {
  const { values } = parseArgs({
    // `pnpm bench:restart -- --learners 100` hands the script its `--` too.
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      learners: { type: 'string', default: '500' },
      duration: { type: 'string', default: '90' },
      // As bench:api paces a session (two images a minute): at one image every 10 s (50 a second)
      // the two cores queue every request for seconds before any restart begins.
      'evidence-every': { type: 'string', default: '30' },
      // Per second from the first poll: requests, p50/p99 and failures, restart windows marked.
      timeline: { type: 'boolean', default: false },
      // The generator's wake-ups then preempt the instances, which share its session (bench:api's
      // --plain-scheduling, lib/scheduling.ts).
      'plain-scheduling': { type: 'boolean', default: false },
      'database-url': {
        type: 'string',
        default: 'postgres://portal:portal@127.0.0.1:5432/portal_bench_restart',
      },
    },
  });
  const whole = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}: expected a whole number above 0, not ${text}`);
    return value;
  };
  return {
    learners: whole('learners', values.learners),
    durationMs: whole('duration', values.duration) * 1000,
    evidenceEveryMs: whole('evidence-every', values['evidence-every']) * 1000,
    databaseUrl: values['database-url'],
    timeline: values.timeline ?? false,
    plainScheduling: values['plain-scheduling'] ?? false,
  };
}

/** Every request's latency (from when it was due) and whether it fell into a restart. */
class RestartRecorder extends Recorder {
  readonly samples: Array<{ at: number; ms: number; failed: boolean; upload: boolean }> = [];
  /** Failures by route and kind (a status and its text, or the client's error), ports left out. */
  readonly failures = new Map<string, number>();
  override record(route: string, scheduledAt: number, sentAt: number, endedAt: number, error?: string) {
    this.samples.push({
      at: scheduledAt,
      ms: endedAt - Math.min(scheduledAt, sentAt),
      failed: error !== undefined,
      upload: route.includes('/evidence'),
    });
    if (error !== undefined) {
      const kind = `${route}: ${error.replace(/127\.0\.0\.1:\d+/g, '…').slice(0, 100)}`;
      this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - performance.now()));

async function main() {
  const { learners, durationMs, evidenceEveryMs, databaseUrl, timeline, plainScheduling } = options();
  // Before any instance starts: they are started under the layout it sets.
  log(arrangeScheduling(plainScheduling).description);
  const dir = await mkdtemp(join(tmpdir(), 'bench-restart-'));
  const children: Child[] = [];
  const identity = await BenchIdentity.start();
  try {
    log(`Preparing ${databaseUrl} with ${learners} seated learners…`);
    const prepared = await prepareSeatedLearners({ kind: 'postgres', url: databaseUrl }, learners);
    const start = async (instance: BalancedInstance) => {
      const child = spawnTs(instance.name, 'src/server.ts', {
        cwd: API_ROOT,
        nodeArgs: [...API_NODE_FLAGS],
        env: {
          ...process.env,
          API_PORT: String(instance.port),
          API_HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          // One shared folder and signing key, as docs/deploy.md asks of several copies.
          STORAGE_DIR: join(dir, 'files'),
          STORAGE_SIGNING_SECRET: 'bench-restart-signing-secret-0123456789',
          OIDC_ISSUER: identity.issuer,
          OIDC_CLIENT_ID: 'frontend',
          SEED_DEMO: 'true',
          SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
          SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
        },
      });
      children.push(child);
      instance.child = child;
      await waitHealthy(child, instance.port, '/readyz', API_START_TIMEOUT_MS);
    };
    const instances: BalancedInstance[] = [];
    for (const name of ['api-a', 'api-b']) {
      instances.push({
        name,
        port: await freePort(),
        child: null,
        ready: false,
        failedProbes: 0,
        probing: false,
        draining: false,
        agent: new http.Agent({ keepAlive: true }),
      });
    }
    await Promise.all(instances.map(start));
    const proxy = await startBalancer(instances);
    await sleep(PROBE_MS * 2);
    log(`Instances on :${instances.map((i) => i.port).join(', :')}; proxy on :${proxy.port}.`);

    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    const storedEvidence = async () => Number((await database.query('select count(*) as n from evidence')).rows[0].n);
    const evidenceBefore = await storedEvidence();

    const bearers = await Promise.all(
      prepared.learners.slice(0, learners).map(async (u) => `Bearer ${await identity.token(u.id, u.email, 3600)}`),
    );
    const rampMs = 15_000;
    const begin = performance.now() + 500;
    const stopAt = begin + rampMs + durationMs;
    const recorder = new RestartRecorder(begin, stopAt);
    const target = new HttpTarget('127.0.0.1', proxy.port, recorder, Math.min(learners * 2, 1024));
    const ctx: ScenarioContext = {
      api: target,
      simulator: target,
      bare: target,
      stopAt,
      sessionMs: durationMs,
      thinkMs: 0,
      evidencePerSession: 0,
      bareEvery: 1,
      statusPolls: { count: 0 },
      image: benchImagePng(),
      reportsAvailable: false,
      abandoned: { count: 0 },
    };
    let submitted = 0;
    let unanswered = 0;
    const swallow = (error: unknown) => {
      if (!(error instanceof UnexpectedResponse)) throw error;
    };
    log(`${learners} learners open a session over ${rampMs / 1000} s, then poll every second and submit evidence every ${evidenceEveryMs / 1000} s for ${durationMs / 1000} s…`);
    const runs = bearers.map(async (bearer, i) => {
      const learner = new Learner(ctx, bearer, () => (i + 0.5) / bearers.length);
      await sleepUntil(begin + (rampMs * i) / bearers.length);
      let session: OpenSession | null = null;
      while (!session && performance.now() < stopAt) {
        session = await learner.createSession(performance.now()).catch((error: unknown) => (swallow(error), null));
        if (!session) await sleep(2000);
      }
      if (!session) return;
      const simulator = new HeadlessSimulator(ctx, session.token);
      await simulator.join(performance.now()).catch(swallow);
      const pending: Promise<unknown>[] = [];
      let index = 0;
      for (let due = session.openedAt + 1000; due < stopAt; due += 1000) {
        await sleepUntil(due);
        pending.push(learner.status(session, due).catch(swallow));
        if ((due - session.openedAt) % evidenceEveryMs < 1000) {
          const n = index++;
          pending.push(
            simulator.submit(n, due).then(
              () => submitted++,
              (error: unknown) => {
                // A submission that timed out may still have been stored; counted apart.
                if (error instanceof UnexpectedResponse && error.status === 0) unanswered++;
                swallow(error);
              },
            ),
          );
        }
      }
      await Promise.all(pending);
    });

    // The rolling restart, once every learner polls: each instance in turn.
    const restarts: Array<{ from: number; to: number }> = [];
    const restarting = (async () => {
      await sleepUntil(begin + rampMs + 10_000);
      for (const instance of instances) {
        const from = performance.now();
        const exited = new Promise<number | null>((resolve) => instance.child!.process.once('exit', (code) => resolve(code)));
        // Deregistered as it is stopped (Kubernetes removes a pod from its endpoints in parallel
        // with the SIGTERM); requests already sent to it finish there.
        instance.draining = true;
        // Its next incarnation is a new endpoint (a new pod has a new address): no connection to
        // this one is reused for it. Pooled sockets of the old process that its exit closed while
        // the bench's loop was behind would otherwise take the new process's first requests and
        // fail them with ECONNRESET, which no real load balancer's pool does.
        const oldAgent = instance.agent;
        instance.agent = new http.Agent({ keepAlive: true });
        instance.child!.process.kill('SIGTERM');
        const code = await exited;
        oldAgent.destroy();
        log(`${instance.name} stopped (exit ${code}) after ${((performance.now() - from) / 1000).toFixed(1)} s; starting it again…`);
        await start(instance);
        instance.draining = false;
        // Back in the proxy's rotation at its next probe.
        await sleep(PROBE_MS * 2);
        // Ready before the next copy is stopped, as a rolling update waits.
        restarts.push({ from, to: performance.now() });
        log(`${instance.name} ready again ${((performance.now() - from) / 1000).toFixed(1)} s after its SIGTERM.`);
      }
    })();
    await Promise.all([...runs, restarting]);
    // Evidence acknowledged with 201 must be stored; give nothing time to disappear or appear.
    const stored = (await storedEvidence()) - evidenceBefore;
    await database.end();
    proxy.close();

    const all = recorder.samples;
    const during = all.filter((s) => restarts.some((r) => s.at >= r.from && s.at <= r.to));
    const stats = (samples: typeof all) => {
      const sorted = Float64Array.from(samples.map((s) => s.ms)).sort();
      return `${samples.length} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
    };
    const failed = all.filter((s) => s.failed).length;
    console.log(`\nRolling restart of 2 API instances on PostgreSQL, ${learners} learners, ${availableParallelism()} cores, load ${loadavg()[0]?.toFixed(2)}`);
    console.log(`  overall:         ${stats(all)}`);
    console.log(`  during restarts: ${stats(during)} (${restarts.map((r) => `${((r.to - r.from) / 1000).toFixed(1)} s`).join(' + ')})`);
    console.log(`  failed requests: ${failed}`);
    for (const [kind, count] of [...recorder.failures].sort((x, y) => y[1] - x[1])) console.log(`    ${count} × ${kind}`);
    console.log(`  routed with no instance passing its probe (fail-open): ${proxy.failOpen.count}`);
    console.log(`  resent to another instance after a connect that failed before sending: ${proxy.retried.count}`);
    console.log(
      `  evidence:        ${submitted} acknowledged (201), ${stored} stored, ${unanswered} without an answer (client timeout); ` +
        `lost (acknowledged, not stored): ${Math.max(0, submitted - stored)}`,
    );
    if (timeline) printTimeline(all, restarts, begin + rampMs);
    const ok = failed === 0 && submitted === stored;
    console.log(ok ? 'PASS: no failed request, no lost evidence' : 'MISS');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await Promise.all(children.map((child) => stop(child)));
    await identity.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();

/**
 * Where in the run the time went: per second (by when requests were due) the polls' and the
 * uploads' count, p50 and p99, and the failures; `R` marks the seconds of a restart window.
 */
function printTimeline(
  samples: RestartRecorder['samples'],
  restarts: Array<{ from: number; to: number }>,
  from: number,
) {
  const seconds = new Map<number, { polls: number[]; uploads: number[]; failed: number }>();
  for (const sample of samples) {
    if (sample.at < from) continue;
    const second = Math.floor((sample.at - from) / 1000);
    const entry = seconds.get(second) ?? { polls: [], uploads: [], failed: 0 };
    (sample.upload ? entry.uploads : entry.polls).push(sample.ms);
    if (sample.failed) entry.failed++;
    seconds.set(second, entry);
  }
  const figures = (values: number[]) => {
    if (values.length === 0) return '—'.padStart(20);
    const sorted = Float64Array.from(values).sort();
    return `${String(values.length).padStart(4)} ${percentile(sorted, 50).toFixed(0).padStart(7)} ${percentile(sorted, 99).toFixed(0).padStart(7)}`;
  };
  console.log('\nPer second after the ramp (R = restart window): polls n p50 p99 ms | uploads n p50 p99 ms | failed');
  for (const second of [...seconds.keys()].sort((a, b) => a - b)) {
    const entry = seconds.get(second)!;
    const at = from + second * 1000;
    const mark = restarts.some((r) => at + 1000 > r.from && at < r.to) ? 'R' : ' ';
    console.log(`  ${String(second).padStart(3)} s ${mark}  ${figures(entry.polls)} | ${figures(entry.uploads)} | ${entry.failed}`);
  }
}
