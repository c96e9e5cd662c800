/**
 * Polling through the host (issue #20 point 1): N learners of one school, all behind one address,
 * poll their session's status every second through the host's /api proxy for D seconds, with the
 * API's production rate limits on. Before #20 every browser behind the host counted as one
 * address, and about 200 such learners exhausted the polling budget; now polling is counted per
 * user, so the run must see no 429 at all. Prints the 429 count, the requests and p50/p99.
 *
 *   npm run bench:polling                   # 500 learners, 60 s (pnpm bench:polling alike)
 *   npm run bench:polling -- --learners 200 --duration 30
 *
 * Starts its own processes on free loopback ports, beside a running `npm start` stack: an
 * identity stand-in (JWKS and Keycloak-shaped tokens, as `pnpm bench:api` does), the API on a
 * fresh PGlite database with the learners seated on Demo Hospital's licence, and the built host
 * (host/server.mjs, as `npm start` builds and runs it) in front of it. The API trusts the host's
 * hop exactly as `npm start` configures it (scripts/services.mjs `apiTrustProxy`).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HttpTarget, UnexpectedResponse } from './lib/http-client';
import { BenchIdentity } from './lib/identity';
import { prepareSeatedLearners } from './lib/prepare-database';
import { freePort, spawnNode, spawnTs, stop, waitHealthy, type Child } from './lib/processes';
import { arrangeScheduling } from './lib/scheduling';
import { API_NODE_FLAGS } from '../src/node-flags';
import { Learner, type OpenSession, type ScenarioContext } from './lib/scenario';
import { percentile, Recorder } from './lib/stats';

const API_ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOST_ROOT = fileURLToPath(new URL('../../host', import.meta.url));
const API_START_TIMEOUT_MS = 180_000;
/** After a failed session creation a learner tries again this much later, as a person would. */
const RETRY_MS = 5_000;

const USAGE = `Usage: npm run bench:polling -- [--learners N] [--duration S] [--poll-ms MS] [--ramp S]
  [--plain-scheduling]

  --learners N   learners of one school behind one address (default 500)
  --duration S   seconds of polling measured, after every learner has started (default 60)
  --poll-ms MS   status poll interval, the launch screen's SESSION_POLL_MS (default 1000)
  --ramp S       seconds over which the learners sign in and open their sessions, before the
                 measured polling (default 30: a class does not click at once)
  --plain-scheduling  the generator and the servers as the shell started them (by default the
                 generator is a SCHED_BATCH task and each server has a session of its own,
                 as bench:api runs them: api/bench/lib/scheduling.ts)

Needs the built host (host/dist, which npm start builds; else pnpm --filter ./host build).`;

const log = (text: string) => process.stderr.write(`${text}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      learners: { type: 'string', default: '500' },
      duration: { type: 'string', default: '60' },
      'poll-ms': { type: 'string', default: '1000' },
      ramp: { type: 'string', default: '30' },
      'plain-scheduling': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    log(USAGE);
    process.exit(0);
  }
  const positive = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) {
      log(`--${name}: expected a whole number above 0, not ${JSON.stringify(text)}\n\n${USAGE}`);
      process.exit(2);
    }
    return value;
  };
  return {
    learners: positive('learners', values.learners),
    durationMs: positive('duration', values.duration) * 1000,
    pollMs: positive('poll-ms', values['poll-ms']),
    rampMs: positive('ramp', values.ramp) * 1000,
    plainScheduling: values['plain-scheduling'] ?? false,
  };
}

/** The environment a child gets: ours without the settings this bench decides itself. */
function childEnv(own: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('RATE_LIMIT_') || name.endsWith('TRUST_PROXY')) delete env[name];
  }
  return { ...env, ...own };
}

const started: { children: Child[]; identity: BenchIdentity | null; dir: string | null } = {
  children: [],
  identity: null,
  dir: null,
};

async function cleanUp() {
  await Promise.all(started.children.map((child) => stop(child)));
  started.children = [];
  await started.identity?.close();
  started.identity = null;
  if (started.dir) await rm(started.dir, { recursive: true, force: true });
  started.dir = null;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping the servers…`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const sleepUntil = (at: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

async function main() {
  const { learners, durationMs, pollMs, rampMs, plainScheduling } = options();
  // Before any server starts: they are started under the layout it sets.
  log(arrangeScheduling(plainScheduling).description);
  if (!existsSync(join(HOST_ROOT, 'dist', 'index.html'))) {
    throw new Error(
      'host/dist is missing: run `npm start` once (it builds the host) or `pnpm --filter ./host build`.',
    );
  }
  const { apiTrustProxy } = (await import(
    new URL('../../scripts/services.mjs', import.meta.url).href
  )) as { apiTrustProxy: (hostTrustProxy?: string) => string };

  const dir = await mkdtemp(join(tmpdir(), 'bench-polling-'));
  started.dir = dir;
  log(`Preparing a database with ${learners} learners seated at Demo Hospital…`);
  const prepared = await prepareSeatedLearners({ kind: 'pglite', dir: join(dir, 'pglite') }, learners);

  const identity = await BenchIdentity.start();
  started.identity = identity;
  const apiPort = await freePort();
  const api = spawnTs('api', 'src/server.ts', {
    cwd: API_ROOT,
    nodeArgs: [...API_NODE_FLAGS],
    env: childEnv({
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
      PGLITE_DIR: join(dir, 'pglite'),
      STORAGE_DIR: join(dir, 'files'),
      DATABASE_URL: '',
      OIDC_ISSUER: identity.issuer,
      OIDC_CLIENT_ID: 'frontend',
      SEED_DEMO: 'true',
      SEED_DEMO_ACTIVITY: 'false',
      // Production limits (the defaults) and the trust `npm start` gives the API behind its host.
      RATE_LIMIT_ENABLED: 'true',
      TRUST_PROXY: apiTrustProxy(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    }),
  });
  started.children.push(api);
  const hostPort = await freePort();
  const host = spawnNode('host', ['server.mjs'], {
    cwd: HOST_ROOT,
    env: childEnv({
      HOST_PORT: String(hostPort),
      HOST_LISTEN: '127.0.0.1',
      API_URL: `http://127.0.0.1:${apiPort}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    }),
  });
  started.children.push(host);
  await waitHealthy(api, apiPort, '/healthz', API_START_TIMEOUT_MS);
  await waitHealthy(host, hostPort, '/healthz', 30_000);
  log(`API on :${apiPort}, host on :${hostPort}; every learner comes from 127.0.0.1.`);

  const tokenTtl = Math.ceil((rampMs + durationMs) / 1000) + 600;
  const bearers = await Promise.all(
    prepared.learners
      .slice(0, learners)
      .map(async (u) => `Bearer ${await identity.token(u.id, u.email, tokenTtl)}`),
  );

  // Through the host, as the browsers of one school would: one address, many connections.
  const begin = performance.now() + 1000;
  const windowStart = begin + rampMs;
  const stopAt = windowStart + durationMs;
  const recorder = new Recorder(begin, stopAt);
  const target = new HttpTarget('127.0.0.1', hostPort, recorder, Math.min(learners, 1024));
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
    image: Buffer.alloc(0),
    reportsAvailable: false,
    abandoned: { count: 0 },
  };
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  /** Every answer counted by status; a failed request (no answer) as 0. */
  const observe = async <T>(call: Promise<T>): Promise<T | null> => {
    try {
      const result = await call;
      count(200);
      return result;
    } catch (error) {
      if (!(error instanceof UnexpectedResponse)) throw error;
      count(error.status);
      return null;
    }
  };
  const polls: number[] = [];
  const loadBefore = loadavg()[0] ?? 0;

  log(
    `${learners} learners sign in and open a session over ${rampMs / 1000} s, then poll ` +
      `every ${pollMs} ms for ${durationMs / 1000} s…`,
  );
  const runs = bearers.map(async (bearer, i) => {
    const learner = new Learner(ctx, bearer, () => (i + 0.5) / bearers.length);
    const signInAt = begin + (rampMs * i) / bearers.length;
    await sleepUntil(signInAt);
    await observe(learner.whoami(signInAt));
    let session: OpenSession | null = null;
    while (!session && performance.now() < stopAt) {
      session = await observe(learner.createSession(performance.now()));
      if (!session) await sleepUntil(performance.now() + RETRY_MS);
    }
    if (!session) return;
    const open = session;
    const pending: Promise<unknown>[] = [];
    for (let due = open.openedAt + pollMs; due < stopAt; due += pollMs) {
      await sleepUntil(due);
      // Open loop: each poll is due on its own schedule, answered or not.
      pending.push(
        observe(learner.status(open, due)).then(() => {
          if (due >= windowStart) polls.push(performance.now() - due);
        }),
      );
    }
    await Promise.all(pending);
  });
  await Promise.all(runs);

  const sorted = Float64Array.from(polls).sort();
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const tooMany = statuses.get(429) ?? 0;
  const byRoute = recorder.routes().sort((a, b) => a.route.localeCompare(b.route));
  const lines = [
    '',
    `Polling through the host: ${learners} learners behind one address, ${durationMs / 1000} s measured, poll every ${pollMs} ms`,
    `  requests sent            ${total} (${[...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status === 0 ? 'no answer within 15 s' : status}: ${n}`)
      .join(', ')})`,
    `  answered 429             ${tooMany}   ${tooMany === 0 ? 'PASS' : 'FAIL'} (target 0)`,
    `  status polls measured    ${sorted.length} (${(sorted.length / (durationMs / 1000)).toFixed(0)}/s)`,
    `  status poll latency      p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.length > 0 ? sorted[sorted.length - 1]! : 0).toFixed(1)} ms`,
    `  machine                  ${availableParallelism()} CPUs, 1-min load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} at the end (load generator, host and API share them)`,
    '',
    '  per route, ramp included:',
    ...byRoute.map(
      (r) =>
        `    ${r.route.padEnd(48)} ${String(r.requests).padStart(7)} requests, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors}${r.errorSamples.length > 0 ? ` (${r.errorSamples[0]})` : ''}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  target.close();
  return tooMany === 0 && !statuses.has(0) ? 0 : 1;
}

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await cleanUp();
    process.exit(1);
  });
