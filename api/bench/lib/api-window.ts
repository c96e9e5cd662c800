import { request } from 'node:http';

/**
 * Where an API instance's time went over the measured window, from its own /metrics (issue #24
 * point 5): event-loop delay (prom-client's `monitorEventLoopDelay`, restarted at every read),
 * CPU and garbage collection, the server-side time of each route (from the request's arrival in
 * Fastify to its answer, so the rest of the client's latency is the wait for the event loop and
 * the socket) and the database statements' time by kind (pool wait included: `pg`'s pool.query
 * waits for a connection first).
 */

/** One read of /metrics: series name + labels → value. */
export interface Scrape {
  /** `process_start_time_seconds`: tells two instances behind one port apart. */
  instance: number;
  values: Map<string, number>;
}

export interface WindowFigures {
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** Cores' worth of CPU the instance used (1 = one core busy all the time). */
  cpuCores: number;
  /** Share of the window spent in garbage collection. */
  gcShare: number;
  /**
   * Collections by kind (prom-client's `nodejs_gc_duration_seconds`): how many, their mean pause
   * and how many paused the loop over 10 ms (the histogram's bucket). A major collection's pause
   * holds every poll that arrives meanwhile: a few of them in 30 s set a p99
   * (api/docs/latency-journal.md, "Evening: a full collection every few seconds").
   */
  gcByKind: Array<{ kind: string; count: number; meanMs: number; over10Ms: number }>;
  /** Mean server-side time per route, for the routes that matter here. */
  routes: Array<{ route: string; perSecond: number; meanMs: number }>;
  statements: Array<{ statement: string; perSecond: number; meanMs: number }>;
  /** Share of look-ups each in-process cache answered from memory (null: none made). */
  /** Per cache: hits and loads (misses) over all look-ups; the rest waited for a load (`shared`). */
  cacheHitRates: Array<{ cache: string; lookups: number; hitShare: number; loadShare: number }>;
  /**
   * The main pool as the window closed (a snapshot: a mid-window read would restart the
   * event-loop histogram). Every statement holds a connection until the event loop reads its
   * answer, so a full pool with statements waiting says round trips, not PostgreSQL, are short.
   */
  pool: { busy: number; max: number; waiting: number } | null;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/;

export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    // Labels without `service="api"`, so two reads compare whatever the label order.
    const labels = (match[2] ?? '').replace(/,?service="api"/, '').replace(/^\{,/, '{');
    values.set(`${match[1]}${labels === '{}' ? '' : labels}`, Number(match[3]));
  }
  return values;
}

function get(port: number, token: string): Promise<string | null> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        headers: { authorization: `Bearer ${token}`, connection: 'close' },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(res.statusCode === 200 ? body : null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

/**
 * Reads /metrics; with `sameAs`, reads again (a new connection goes to the next instance of the
 * cluster) until the answer comes from that instance, so the two reads can be subtracted.
 */
export async function scrapeApi(
  port: number,
  token: string,
  sameAs?: Scrape,
): Promise<Scrape | null> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const text = await get(port, token);
    if (text === null) return null;
    const values = parseMetrics(text);
    const scrape = { instance: values.get('process_start_time_seconds') ?? 0, values };
    if (!sameAs || scrape.instance === sameAs.instance) return scrape;
  }
  return null;
}

/**
 * Waits until `count` different instances have answered /metrics (a new connection goes to the
 * next instance of the cluster), so the load does not start while the later ones still start up
 * and burn the CPU it measures. False on timeout.
 */
export async function waitForInstances(
  port: number,
  token: string,
  count: number,
  timeoutMs: number,
): Promise<boolean> {
  const seen = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const scrape = await scrapeApi(port, token);
    if (scrape) seen.add(scrape.instance);
    if (seen.size >= count) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

function deltas(start: Scrape, end: Scrape, prefix: string, suffix: string) {
  const out = new Map<string, number>();
  for (const [key, value] of end.values) {
    if (!key.startsWith(prefix) || !key.slice(prefix.length).startsWith(suffix)) continue;
    out.set(key.slice(prefix.length + suffix.length), value - (start.values.get(key) ?? 0));
  }
  return out;
}

function label(labels: string, name: string): string {
  return new RegExp(`${name}="([^"]*)"`).exec(labels)?.[1] ?? '';
}

const GC_KINDS = ['major', 'minor', 'incremental'] as const;

/** Collections by kind over the window, from the GC histogram's counts, sums and 10 ms bucket. */
function gcByKind(start: Scrape, end: Scrape): WindowFigures['gcByKind'] {
  const name = 'nodejs_gc_duration_seconds';
  const byKind = (suffix: string, keep: (labels: string) => boolean = () => true) => {
    const out = new Map<string, number>();
    for (const [labels, value] of deltas(start, end, name, suffix)) {
      if (!keep(labels)) continue;
      const kind = label(labels, 'kind');
      out.set(kind, (out.get(kind) ?? 0) + value);
    }
    return out;
  };
  const counts = byKind('_count');
  const sums = byKind('_sum');
  const within10Ms = byKind('_bucket', (labels) => label(labels, 'le') === '0.01');
  return GC_KINDS.filter((kind) => (counts.get(kind) ?? 0) > 0).map((kind) => {
    const count = counts.get(kind)!;
    return {
      kind,
      count,
      meanMs: ((sums.get(kind) ?? 0) / count) * 1000,
      over10Ms: count - (within10Ms.get(kind) ?? 0),
    };
  });
}

/** Mean time and rate per label set of a histogram, busiest first. */
function histogramMeans(start: Scrape, end: Scrape, name: string, seconds: number) {
  const sums = deltas(start, end, name, '_sum');
  const counts = deltas(start, end, name, '_count');
  return [...counts]
    .filter(([, count]) => count > 0)
    .map(([labels, count]) => ({
      labels,
      perSecond: count / seconds,
      meanMs: ((sums.get(labels) ?? 0) / count) * 1000,
    }))
    .sort((a, b) => b.perSecond - a.perSecond);
}

/** Hits and loads over look-ups per cache over the window (`cache_lookups_total`). */
function cacheHitRates(start: Scrape, end: Scrape) {
  const lookups = new Map<string, { hit: number; miss: number; all: number }>();
  for (const [labels, count] of deltas(start, end, 'cache_lookups_total', '')) {
    const cache = label(labels, 'cache');
    const entry = lookups.get(cache) ?? { hit: 0, miss: 0, all: 0 };
    const result = label(labels, 'result');
    if (result === 'hit') entry.hit += count;
    else if (result === 'miss') entry.miss += count;
    entry.all += count;
    lookups.set(cache, entry);
  }
  return [...lookups]
    .filter(([, { all }]) => all > 0)
    .map(([cache, { hit, miss, all }]) => ({
      cache,
      lookups: all,
      hitShare: hit / all,
      loadShare: miss / all,
    }));
}

export function windowFigures(start: Scrape, end: Scrape, seconds: number): WindowFigures {
  const v = (name: string) => end.values.get(name) ?? 0;
  const change = (name: string) => v(name) - (start.values.get(name) ?? 0);
  return {
    eventLoopDelayMs: {
      p50: v('nodejs_eventloop_lag_p50_seconds') * 1000,
      p99: v('nodejs_eventloop_lag_p99_seconds') * 1000,
      max: v('nodejs_eventloop_lag_max_seconds') * 1000,
    },
    cpuCores: change('process_cpu_seconds_total') / seconds,
    gcShare:
      [...deltas(start, end, 'nodejs_gc_duration_seconds', '_sum').values()].reduce(
        (a, b) => a + b,
        0,
      ) / seconds,
    gcByKind: gcByKind(start, end),
    routes: histogramMeans(start, end, 'http_request_duration_seconds', seconds)
      .slice(0, 6)
      .map((r) => ({
        route: `${label(r.labels, 'method')} ${label(r.labels, 'route')} ${label(r.labels, 'status_code')}`,
        perSecond: r.perSecond,
        meanMs: r.meanMs,
      })),
    statements: histogramMeans(start, end, 'db_query_duration_seconds', seconds)
      .slice(0, 6)
      .map((r) => ({
        statement: label(r.labels, 'statement'),
        perSecond: r.perSecond,
        meanMs: r.meanMs,
      })),
    cacheHitRates: cacheHitRates(start, end),
    pool: end.values.has('db_pool_connections{state="max"}')
      ? {
          busy: v('db_pool_connections{state="busy"}'),
          max: v('db_pool_connections{state="max"}'),
          waiting: v('db_pool_waiting_queries'),
        }
      : null,
  };
}

export function windowText(w: WindowFigures, instances: number): string {
  const f = (n: number) => n.toFixed(n < 10 ? 2 : 1);
  return [
    `inside ${instances > 1 ? `one of the ${instances} API instances` : 'the API'} over the window (its /metrics): ` +
      `event-loop delay p50 ${f(w.eventLoopDelayMs.p50)} / p99 ${f(w.eventLoopDelayMs.p99)} / ` +
      `max ${f(w.eventLoopDelayMs.max)} ms; CPU ${w.cpuCores.toFixed(2)} cores; ` +
      `GC ${(w.gcShare * 100).toFixed(1)} % of the time` +
      (w.gcByKind.length > 0
        ? ` (${w.gcByKind
            .map(
              (g) =>
                `${g.count} ${g.kind}, mean ${f(g.meanMs)} ms` +
                (g.over10Ms > 0 ? `, ${g.over10Ms} over 10 ms` : ''),
            )
            .join('; ')})`
        : ''),
    ...w.routes.map(
      (r) =>
        `  route ${r.route}: ${r.perSecond.toFixed(0)}/s, mean ${f(r.meanMs)} ms arrival → answer`,
    ),
    ...w.statements.map(
      (s) =>
        `  statement ${s.statement}: ${s.perSecond.toFixed(0)}/s, mean ${f(s.meanMs)} ms (pool wait included)`,
    ),
    ...(w.statements.length > 0
      ? [
          `  statements in all: ${w.statements.reduce((sum, s) => sum + s.perSecond, 0).toFixed(0)}/s` +
            (w.pool
              ? `; pool as the window closed: ${w.pool.busy} of ${w.pool.max} busy, ${w.pool.waiting} waiting`
              : ''),
        ]
      : []),
    ...(w.cacheHitRates.length > 0
      ? [
          `  caches: ${w.cacheHitRates
            .map(
              (c) =>
                `${c.cache} ${(c.hitShare * 100).toFixed(1)} % hits, ${(c.loadShare * 100).toFixed(1)} % loads of ${c.lookups}`,
            )
            .join(', ')}`,
        ]
      : []),
  ].join('\n');
}
