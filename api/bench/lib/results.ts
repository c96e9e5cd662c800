import type { RouteStats } from './stats';
import { ROUTES } from './scenario';

export interface Target {
  name: string;
  route: string;
  p99LimitMs: number;
  /** The rate the target is stated at; informational beside the achieved throughput. */
  atRate?: number;
}

/** Issue #3 item 7. Reported, never asserted: a figure on a shared two-core machine is not a test. */
export const TARGETS: readonly Target[] = [
  { name: 'whoami p99 ≤ 10 ms at 500 req/s', route: ROUTES.whoami, p99LimitMs: 10, atRate: 500 },
  {
    name: 'session status p99 ≤ 10 ms at 500 req/s',
    route: ROUTES.status,
    p99LimitMs: 10,
    atRate: 500,
  },
  { name: 'report list p99 ≤ 25 ms (own reports)', route: ROUTES.reportList, p99LimitMs: 25 },
  {
    name: 'report list p99 ≤ 25 ms (learner reports)',
    route: ROUTES.learnerReports,
    p99LimitMs: 25,
  },
];

export interface TargetResult {
  name: string;
  route: string;
  p99LimitMs: number;
  p99: number | null;
  throughput: number | null;
  verdict: 'PASS' | 'MISS' | 'NOT MEASURED';
}

export function judge(routes: readonly RouteStats[]): TargetResult[] {
  return TARGETS.map((t) => {
    const stats = routes.find((r) => r.route === t.route);
    if (!stats || stats.requests === 0) {
      return { ...t, p99: null, throughput: null, verdict: 'NOT MEASURED' as const };
    }
    // Errors answered fast would flatter the latency; a route that failed did not pass.
    const pass = stats.p99 <= t.p99LimitMs && stats.errors === 0;
    return {
      name: t.name,
      route: t.route,
      p99LimitMs: t.p99LimitMs,
      p99: stats.p99,
      throughput: stats.throughput,
      verdict: pass ? ('PASS' as const) : ('MISS' as const),
    };
  });
}

const ORDER: readonly string[] = Object.values(ROUTES);

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

export function routeTable(routes: readonly RouteStats[], unloaded: readonly RouteStats[]): string {
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
    ],
    sortRoutes(routes).map((r) => {
      const a = alone.get(r.route);
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
      ];
    }),
  );
}

export function targetTable(results: readonly TargetResult[]): string {
  return table(
    ['target', 'measured p99', 'at req/s', 'verdict'],
    results.map((r) => [
      r.name,
      r.p99 === null ? '—' : `${ms(r.p99)} ms`,
      r.throughput === null ? '—' : r.throughput.toFixed(1),
      r.verdict,
    ]),
  );
}
