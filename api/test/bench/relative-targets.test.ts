import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMetrics, windowFigures, type Scrape } from '../../bench/lib/api-window';
import {
  judgeRelative,
  multipleOfBare,
  OTHER_WORK_MAX_CORES,
  routeTable,
} from '../../bench/lib/results';
import { ROUTES } from '../../bench/lib/scenario';
import type { RouteStats } from '../../bench/lib/stats';

const stats = (route: string, p99: number, errors = 0): RouteStats => ({
  route,
  requests: 1000,
  throughput: 1000,
  p50: p99 / 4,
  p95: p99 / 2,
  p99,
  max: p99 * 2,
  errors,
  errorSamples: [],
});

/** bench:api's issue #24 targets: the polled routes judged against the bare route of the same run. */
describe('bench: p99 as a multiple of the bare route', () => {
  test('whoami and status pass at or under 2 × the bare p99 and miss above it', () => {
    const routes = [stats(ROUTES.bare, 10), stats(ROUTES.whoami, 20), stats(ROUTES.status, 20.5)];
    const [whoami, status] = judgeRelative(routes);
    assert.equal(whoami?.verdict, 'PASS');
    assert.equal(whoami?.multiple, 2);
    assert.equal(status?.verdict, 'MISS');
    assert.equal(status?.multiple, 2.05);
  });

  test('errors of the route or of the bare route make it a miss; no bare route, not measured', () => {
    const withErrors = judgeRelative([stats(ROUTES.bare, 10, 3), stats(ROUTES.whoami, 5)]);
    assert.equal(withErrors[0]?.verdict, 'MISS');
    assert.equal(withErrors[0]?.why, '3 errors');
    const withoutBare = judgeRelative([stats(ROUTES.whoami, 5)]);
    assert.equal(withoutBare[0]?.verdict, 'NOT MEASURED');
    assert.equal(multipleOfBare(stats(ROUTES.whoami, 5), []), null);
  });

  test('a run where other processes took the machine is not measured, whatever its multiple', () => {
    const routes = [stats(ROUTES.bare, 10), stats(ROUTES.whoami, 11)];
    const [busy] = judgeRelative(routes, OTHER_WORK_MAX_CORES + 0.5);
    assert.equal(busy?.verdict, 'NOT MEASURED');
    assert.equal(
      busy?.why,
      `other processes used ${(OTHER_WORK_MAX_CORES + 0.5).toFixed(2)} cores of the machine`,
    );
    assert.equal(busy?.multiple, 1.1, 'the figures are still shown');
    assert.equal(judgeRelative(routes, OTHER_WORK_MAX_CORES)[0]?.verdict, 'PASS');
    assert.equal(judgeRelative(routes, null)[0]?.verdict, 'PASS', 'no split (not Linux): judged');
  });

  test('the load table prints the multiple per route', () => {
    const table = routeTable([stats(ROUTES.bare, 8), stats(ROUTES.whoami, 12)], [], true);
    assert.match(table, /p99 × bare/);
    assert.match(table, /whoami .* 1\.50×$/m);
  });
});

describe('bench: the API window from two reads of /metrics', () => {
  const read = (text: string): Scrape => {
    const values = parseMetrics(text);
    return { instance: values.get('process_start_time_seconds') ?? 0, values };
  };

  test('subtracts the histograms and reads the event-loop delay of the second read', () => {
    const start = read(
      [
        '# HELP process_cpu_seconds_total x',
        'process_start_time_seconds{service="api"} 1700000000',
        'process_cpu_seconds_total{service="api"} 10',
        'nodejs_gc_duration_seconds_sum{kind="minor",service="api"} 1',
        'db_query_duration_seconds_sum{driver="postgres",statement="select",service="api"} 2',
        'db_query_duration_seconds_count{driver="postgres",statement="select",service="api"} 1000',
        'http_request_duration_seconds_sum{method="GET",route="/api/v1/user/whoami",status_code="200",service="api"} 1',
        'http_request_duration_seconds_count{method="GET",route="/api/v1/user/whoami",status_code="200",service="api"} 500',
      ].join('\n'),
    );
    const end = read(
      [
        'process_start_time_seconds{service="api"} 1700000000',
        'process_cpu_seconds_total{service="api"} 25',
        'nodejs_eventloop_lag_p50_seconds{service="api"} 0.0105',
        'nodejs_eventloop_lag_p99_seconds{service="api"} 0.03',
        'nodejs_eventloop_lag_max_seconds{service="api"} 0.09',
        'nodejs_gc_duration_seconds_sum{kind="minor",service="api"} 2.5',
        'db_query_duration_seconds_sum{driver="postgres",statement="select",service="api"} 5',
        'db_query_duration_seconds_count{driver="postgres",statement="select",service="api"} 2000',
        'http_request_duration_seconds_sum{method="GET",route="/api/v1/user/whoami",status_code="200",service="api"} 3',
        'http_request_duration_seconds_count{method="GET",route="/api/v1/user/whoami",status_code="200",service="api"} 1500',
        'db_pool_connections{state="busy",service="api"} 20',
        'db_pool_connections{state="idle",service="api"} 0',
        'db_pool_connections{state="max",service="api"} 20',
        'db_pool_waiting_queries{service="api"} 35',
      ].join('\n'),
    );
    const w = windowFigures(start, end, 30);
    assert.deepEqual(w.pool, { busy: 20, max: 20, waiting: 35 });
    assert.equal(windowFigures(end, start, 30).pool, null, 'no pool figures, none shown');
    assert.deepEqual(w.eventLoopDelayMs, { p50: 10.5, p99: 30, max: 90 });
    assert.equal(w.cpuCores, 0.5);
    assert.equal(w.gcShare, 0.05);
    assert.deepEqual(w.statements, [{ statement: 'select', perSecond: 1000 / 30, meanMs: 3 }]);
    assert.equal(w.routes[0]?.route, 'GET /api/v1/user/whoami 200');
    assert.equal(w.routes[0]?.meanMs, 2);
  });

  test('counts collections by kind, with their mean pause and those over 10 ms', () => {
    const gc = (kind: string, within1: number, within10: number, count: number, sum: number) => [
      `nodejs_gc_duration_seconds_bucket{le="0.001",kind="${kind}",service="api"} ${within1}`,
      `nodejs_gc_duration_seconds_bucket{le="0.01",kind="${kind}",service="api"} ${within10}`,
      `nodejs_gc_duration_seconds_bucket{le="+Inf",kind="${kind}",service="api"} ${count}`,
      `nodejs_gc_duration_seconds_sum{kind="${kind}",service="api"} ${sum}`,
      `nodejs_gc_duration_seconds_count{kind="${kind}",service="api"} ${count}`,
    ];
    const start = read([...gc('minor', 10, 40, 40, 0.2), ...gc('major', 0, 2, 3, 0.05)].join('\n'));
    const end = read([...gc('minor', 12, 73, 75, 0.41), ...gc('major', 0, 3, 9, 0.146)].join('\n'));
    const w = windowFigures(start, end, 30);
    assert.deepEqual(
      w.gcByKind.map((g) => ({ ...g, meanMs: Math.round(g.meanMs * 10) / 10 })),
      [
        { kind: 'major', count: 6, meanMs: 16, over10Ms: 5 },
        { kind: 'minor', count: 35, meanMs: 6, over10Ms: 2 },
      ],
    );
    assert.deepEqual(windowFigures(end, end, 30).gcByKind, [], 'no collection, no kind');
  });
});
