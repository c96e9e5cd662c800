import { performance } from 'node:perf_hooks';
import { XSRF_COOKIE } from '@portal/contract';
import { UnexpectedResponse, type HttpTarget, type RequestSpec } from './http-client';
import { Recorder, type RouteStats } from './stats';

/** Orderings of the learner report list docs/requirements.md#main-area allows (the grid's sortable columns). */
export const ORDERINGS = ['simulation', 'session', 'user', 'recorded', 'analysisStatusSummary'];
/** The deep page of the targets: with 20 rows a page, the 9 981st report onwards. */
export const DEEP_PAGE = 500;

export const PROBES = {
  own: 'probe: GET /report?page=1 (own reports, learners in turn)',
  learnerFirst: 'probe: GET /report/learner?page=1',
  learnerDeep: `probe: GET /report/learner?page=${DEEP_PAGE}`,
  ordering: (ordering: string) =>
    `probe: GET /report/learner?ordering=${ordering} (pages 1 and ${DEEP_PAGE} in turn)`,
  searchName: "probe: GET /report/learner?filter=Learner {n} (a learner's name)",
  searchProduct: 'probe: GET /report/learner?filter=radiography (a product: half the reports)',
  saturationApi: 'saturation: GET /api/v1/user/whoami (closed loop)',
  saturationBare: 'saturation: GET /bare (closed loop)',
} as const;

const COOKIE = `${XSRF_COOKIE}=bench-xsrf-token`;

/** Failed requests are counted by the recorder; the probe goes on. */
function swallowUnexpected(error: unknown) {
  if (!(error instanceof UnexpectedResponse)) throw error;
}

export interface ProbeContext {
  api: HttpTarget;
  educatorBearer: string;
  learnerBearers: readonly string[];
  /** Numbers n of the seated learners, whose names read "Learner n". */
  learnerNumbers: readonly number[];
  seconds: number;
  rate: number;
  /** Resolves once the API has worked off earlier requests, so a probe pays only for its own. */
  waitIdle: () => Promise<unknown>;
}

interface Probe {
  route: string;
  /** The i-th request of the probe. */
  request: (i: number) => { path: string; bearer: string };
}

function probes(ctx: ProbeContext): Probe[] {
  const educator = (path: string) => () => ({ path, bearer: ctx.educatorBearer });
  const list: Probe[] = [
    {
      route: PROBES.own,
      request: (i) => ({
        path: '/api/v1/report?page=1',
        bearer: ctx.learnerBearers[i % ctx.learnerBearers.length]!,
      }),
    },
    { route: PROBES.learnerFirst, request: educator('/api/v1/report/learner?page=1') },
    {
      route: PROBES.learnerDeep,
      request: educator(`/api/v1/report/learner?page=${DEEP_PAGE}`),
    },
  ];
  for (const field of ORDERINGS) {
    for (const ordering of [field, `-${field}`]) {
      list.push({
        route: PROBES.ordering(ordering),
        request: (i) => ({
          path: `/api/v1/report/learner?ordering=${ordering}&page=${i % 2 === 0 ? 1 : DEEP_PAGE}`,
          bearer: ctx.educatorBearer,
        }),
      });
    }
  }
  list.push(
    {
      route: PROBES.searchName,
      request: (i) => ({
        path: `/api/v1/report/learner?filter=${encodeURIComponent(
          `Learner ${ctx.learnerNumbers[(i * 7919) % ctx.learnerNumbers.length]}`,
        )}`,
        bearer: ctx.educatorBearer,
      }),
    },
    { route: PROBES.searchProduct, request: educator('/api/v1/report/learner?filter=radiography') },
  );
  return list;
}

/** A list slower than this alone cannot be probed at a rate of several per second. */
const SLOW_MS = 250;
const SLOW_SAMPLES = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each report-list probe alone, open loop at `rate` requests per second for `seconds`, with the
 * servers otherwise idle: the cost of the list itself at this data size, latency from when each
 * request was due. A learner-list request is the educator's (organisation scope).
 */
export async function runProbes(
  ctx: ProbeContext,
  log: (text: string) => void,
): Promise<{ stats: RouteStats[]; notes: string[] }> {
  const results: RouteStats[] = [];
  const notes: string[] = [];
  const period = 1000 / ctx.rate;
  const count = Math.max(1, Math.round(ctx.seconds * ctx.rate));
  for (const probe of probes(ctx)) {
    await ctx.waitIdle();
    // The first requests of a probe warm the plan cache and the pages it reads, and tell whether
    // the list can be read at the probe's rate at all.
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { path, bearer } = probe.request(i);
      const at = performance.now();
      await ctx.api.call('warm-up', at, get(path, bearer)).catch(swallowUnexpected);
      warm.push(performance.now() - at);
    }
    const slow = Math.max(...warm) > SLOW_MS;
    const start = performance.now() + 50;
    // A list that takes seconds would queue the whole probe behind itself (and the next probes
    // behind it): it is read a few times one at a time instead, which bounds the run.
    const recorder = new Recorder(start, slow ? Number.POSITIVE_INFINITY : start + count * period);
    ctx.api.recorder = recorder;
    if (slow) {
      for (let i = 0; i < SLOW_SAMPLES; i++) {
        const { path, bearer } = probe.request(i);
        await ctx.api
          .call(probe.route, Math.max(start, performance.now()), get(path, bearer))
          .catch(swallowUnexpected);
      }
      notes.push(
        `${probe.route}: over ${SLOW_MS} ms alone, so read ${SLOW_SAMPLES} times one at a time ` +
          `instead of ${ctx.rate}/s (its p99 is the slowest of those).`,
      );
    } else {
      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < count; i++) {
        const due = start + i * period;
        await sleep(Math.max(0, due - performance.now()));
        const { path, bearer } = probe.request(i);
        pending.push(ctx.api.call(probe.route, due, get(path, bearer)).catch(swallowUnexpected));
      }
      await Promise.all(pending);
    }
    const stats = recorder.routes().find((r) => r.route === probe.route);
    if (stats) {
      results.push(stats);
      log(`  ${probe.route}: p95 ${stats.p95.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms`);
    }
  }
  return { stats: results, notes };
}

function get(path: string, bearer: string): RequestSpec {
  return { method: 'GET', path, headers: { authorization: bearer, cookie: COOKIE }, expect: [200] };
}

/**
 * Closed loop: `connections` callers each send the next request as soon as the last one answered,
 * for one second of warm-up and `seconds` measured. The throughput is the server's capacity on
 * this machine, the load generator sharing its cores.
 */
export async function saturate(
  target: HttpTarget,
  route: string,
  spec: (i: number) => RequestSpec,
  connections: number,
  seconds: number,
): Promise<RouteStats> {
  const start = performance.now() + 1000;
  const end = start + seconds * 1000;
  const recorder = new Recorder(start, end);
  target.recorder = recorder;
  let n = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await target.call(route, performance.now(), spec(n++)).catch(swallowUnexpected);
      }
    }),
  );
  const stats = recorder.routes().find((r) => r.route === route);
  if (!stats) throw new Error(`No ${route} request was measured`);
  return stats;
}
