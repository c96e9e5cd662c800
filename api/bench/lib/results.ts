import type { RouteStats } from './stats';
import { DEEP_PAGE, ORDERINGS, PROBES } from './probes';
import { ROUTES } from './scenario';

export interface Target {
  name: string;
  route: string;
  metric: 'p95' | 'p99';
  limitMs: number;
  /** The rate the target is stated at: a lower achieved rate is a miss too. */
  atRate?: number;
}

/**
 * Issue #11 point 4 (on issue #3's routes, at 1 000 req/s now). Reported, never asserted: a figure
 * on a shared two-core machine is not a test.
 */
export const TARGETS: readonly Target[] = [
  {
    name: 'whoami p99 ≤ 10 ms at 1 000 req/s',
    route: ROUTES.whoami,
    metric: 'p99',
    limitMs: 10,
    atRate: 1000,
  },
  {
    name: 'session status p99 ≤ 10 ms at 1 000 req/s',
    route: ROUTES.status,
    metric: 'p99',
    limitMs: 10,
    atRate: 1000,
  },
  { name: 'own report list p99 ≤ 20 ms', route: PROBES.own, metric: 'p99', limitMs: 20 },
  {
    name: 'learner report list, page 1, p99 ≤ 30 ms',
    route: PROBES.learnerFirst,
    metric: 'p99',
    limitMs: 30,
  },
  {
    name: `learner report list, page ${DEEP_PAGE}, p99 ≤ 30 ms`,
    route: PROBES.learnerDeep,
    metric: 'p99',
    limitMs: 30,
  },
  ...ORDERINGS.flatMap((field) =>
    [field, `-${field}`].map((ordering): Target => ({
      name: `ordering=${ordering} p99 ≤ 30 ms`,
      route: PROBES.ordering(ordering),
      metric: 'p99',
      limitMs: 30,
    })),
  ),
  {
    name: "search filter (a learner's name) p95 ≤ 30 ms",
    route: PROBES.searchName,
    metric: 'p95',
    limitMs: 30,
  },
  {
    name: 'search filter (a product name) p95 ≤ 30 ms',
    route: PROBES.searchProduct,
    metric: 'p95',
    limitMs: 30,
  },
];

/**
 * Issue #24 point 5: on a machine where the load generator, PostgreSQL and the API share two
 * cores, an absolute p99 mostly measures the machine; the bare Fastify route called on the same
 * schedule in the same run is the floor, and these routes are judged as multiples of its p99.
 */
export const RELATIVE_TARGETS: readonly { name: string; route: string; maxMultiple: number }[] = [
  { name: 'whoami p99 ≤ 2 × the bare route’s p99', route: ROUTES.whoami, maxMultiple: 2 },
  {
    name: 'session status p99 ≤ 2 × the bare route’s p99',
    route: ROUTES.status,
    maxMultiple: 2,
  },
];

/** A route's p99 over the bare route's p99 in the same window; null without a bare figure. */
export function multipleOfBare(route: RouteStats, routes: readonly RouteStats[]): number | null {
  const bare = routes.find((r) => r.route === ROUTES.bare);
  if (!bare || bare.requests === 0 || bare.p99 <= 0) return null;
  return route.p99 / bare.p99;
}

export interface RelativeTargetResult {
  name: string;
  route: string;
  maxMultiple: number;
  multiple: number | null;
  p99: number | null;
  bareP99: number | null;
  verdict: 'PASS' | 'MISS' | 'NOT MEASURED';
  why?: string;
}

/**
 * Cores' worth of CPU that processes outside the bench may take over the window before its
 * multiples stop counting. A clean run has none (the split's "everything else" reads 0.00); a
 * type check run beside one took 0.63, and the generator, waiting behind it, then set both p99s.
 */
export const OTHER_WORK_MAX_CORES = 0.1;

/**
 * `otherCores`: the CPU split's "everything else" over the window (null where it could not be
 * read). Above OTHER_WORK_MAX_CORES the run measured the other work, and its verdicts say so.
 */
export function judgeRelative(
  routes: readonly RouteStats[],
  otherCores: number | null = null,
): RelativeTargetResult[] {
  const bare = routes.find((r) => r.route === ROUTES.bare);
  return RELATIVE_TARGETS.map((t) => {
    const stats = routes.find((r) => r.route === t.route);
    const multiple = stats ? multipleOfBare(stats, routes) : null;
    const base = { name: t.name, route: t.route, maxMultiple: t.maxMultiple };
    if (!stats || stats.requests === 0 || multiple === null) {
      return {
        ...base,
        multiple: null,
        p99: null,
        bareP99: null,
        verdict: 'NOT MEASURED' as const,
      };
    }
    const figures = { ...base, multiple, p99: stats.p99, bareP99: bare?.p99 ?? null };
    if (otherCores !== null && otherCores > OTHER_WORK_MAX_CORES) {
      return {
        ...figures,
        verdict: 'NOT MEASURED' as const,
        why: `other processes used ${otherCores.toFixed(2)} cores of the machine`,
      };
    }
    // A route that failed, or a bare route that failed, makes the ratio meaningless.
    const errors = stats.errors + (bare?.errors ?? 0);
    const why = errors > 0 ? `${errors} errors` : undefined;
    return {
      ...figures,
      verdict: multiple <= t.maxMultiple && !why ? ('PASS' as const) : ('MISS' as const),
      ...(why ? { why } : {}),
    };
  });
}

export function relativeTargetTable(results: readonly RelativeTargetResult[]): string {
  return table(
    ['target (same run)', 'p99 ms', 'bare p99 ms', 'multiple', 'verdict'],
    results.map((r) => [
      r.name,
      r.p99 === null ? '—' : ms(r.p99),
      r.bareP99 === null ? '—' : ms(r.bareP99),
      r.multiple === null ? '—' : `${r.multiple.toFixed(2)}×`,
      r.why ? `${r.verdict} (${r.why})` : r.verdict,
    ]),
  );
}

/** A rate within this share of the stated one counts as reaching it (the loop's own jitter). */
const RATE_TOLERANCE = 0.9;
/** Issue #11 point 5: whoami at saturation against the bare framework route. */
export const SATURATION_RATIO_TARGET = 0.6;

export interface TargetResult {
  name: string;
  route: string;
  metric: 'p95' | 'p99';
  limitMs: number;
  measured: number | null;
  throughput: number | null;
  verdict: 'PASS' | 'MISS' | 'NOT MEASURED';
  why?: string;
}

export function judge(routes: readonly RouteStats[]): TargetResult[] {
  return TARGETS.map((t) => {
    const stats = routes.find((r) => r.route === t.route);
    const base = { name: t.name, route: t.route, metric: t.metric, limitMs: t.limitMs };
    if (!stats || stats.requests === 0) {
      return { ...base, measured: null, throughput: null, verdict: 'NOT MEASURED' as const };
    }
    const measured = stats[t.metric];
    // Errors answered fast would flatter the latency; a route that failed did not pass.
    let why: string | undefined;
    if (stats.errors > 0) why = `${stats.errors} errors`;
    else if (t.atRate && stats.throughput < t.atRate * RATE_TOLERANCE) {
      why = `only ${stats.throughput.toFixed(0)} req/s`;
    }
    const pass = measured <= t.limitMs && why === undefined;
    return {
      ...base,
      measured,
      throughput: stats.throughput,
      verdict: pass ? ('PASS' as const) : ('MISS' as const),
      ...(why ? { why } : {}),
    };
  });
}

export interface SaturationResult {
  api: RouteStats;
  bare: RouteStats;
  ratio: number;
  verdict: 'PASS' | 'MISS';
}

export function judgeSaturation(api: RouteStats, bare: RouteStats): SaturationResult {
  const ratio = bare.throughput > 0 ? api.throughput / bare.throughput : 0;
  const pass = ratio >= SATURATION_RATIO_TARGET && api.errors === 0;
  return { api, bare, ratio, verdict: pass ? 'PASS' : 'MISS' };
}

export function saturationText(s: SaturationResult): string {
  return [
    `whoami at saturation: ${s.api.throughput.toFixed(0)} req/s (p50 ${ms(s.api.p50)} ms, ` +
      `p99 ${ms(s.api.p99)} ms, ${s.api.errors} errors); bare Fastify: ` +
      `${s.bare.throughput.toFixed(0)} req/s (p50 ${ms(s.bare.p50)} ms)`,
    `ratio whoami / bare = ${s.ratio.toFixed(2)} (target ≥ ${SATURATION_RATIO_TARGET}): ${s.verdict}`,
  ].join('\n');
}

const ORDER: readonly string[] = [
  ...Object.values(ROUTES),
  ...TARGETS.map((t) => t.route).filter((r) => r.startsWith('probe')),
];

export function sortRoutes(routes: readonly RouteStats[]): RouteStats[] {
  return [...routes].sort((a, b) => ORDER.indexOf(a.route) - ORDER.indexOf(b.route));
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

/** `relative`: add each route's p99 as a multiple of the bare route's (the load's table). */
export function routeTable(
  routes: readonly RouteStats[],
  unloaded: readonly RouteStats[],
  relative = false,
): string {
  const alone = new Map(unloaded.map((r) => [r.route, r]));
  return table(
    [
      'route',
      'requests',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'errors',
      'alone p50 ms',
      ...(relative ? ['p99 × bare'] : []),
    ],
    sortRoutes(routes).map((r) => {
      const a = alone.get(r.route);
      const multiple = relative ? multipleOfBare(r, routes) : null;
      return [
        r.route,
        String(r.requests),
        r.throughput.toFixed(1),
        ms(r.p50),
        ms(r.p95),
        ms(r.p99),
        ms(r.max),
        String(r.errors),
        a ? ms(a.p50) : '—',
        ...(relative ? [multiple === null ? '—' : `${multiple.toFixed(2)}×`] : []),
      ];
    }),
  );
}

export function targetTable(results: readonly TargetResult[]): string {
  return table(
    ['target', 'measured', 'at req/s', 'verdict'],
    results.map((r) => [
      r.name,
      r.measured === null ? '—' : `${r.metric} ${ms(r.measured)} ms`,
      r.throughput === null ? '—' : r.throughput.toFixed(1),
      r.why ? `${r.verdict} (${r.why})` : r.verdict,
    ]),
  );
}
