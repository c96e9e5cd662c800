// Prometheus metrics for every server process: one registry per process, the request histogram
// by route template, and GET /metrics behind a bearer token. prom-client does the format.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import client from 'prom-client';

/** Request durations: a poll answers in milliseconds, an upload or a report list in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What a request without a matching route is counted under, so unknown URLs add no series. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The process's registry with Node's default metrics (event loop lag, heap, GC, handles) and the
 * request histogram, every series labelled `service`. `counter`, `gauge` and `histogram` take
 * prom-client's options and register in this registry.
 */
export function createMetrics(service) {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  replaceWalkingDefaults(registry);
  const inRegistry = (options) => ({ ...options, registers: [registry] });
  const metrics = {
    registry,
    counter: (options) => new client.Counter(inRegistry(options)),
    gauge: (options) => new client.Gauge(inRegistry(options)),
    histogram: (options) => new client.Histogram(inRegistry(options)),
  };
  metrics.httpRequestDuration = new SeriesHistogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by route template (never the raw URL) and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_BUCKETS,
  });
  registry.registerMetric(metrics.httpRequestDuration);
  return metrics;
}

/**
 * prom-client's default metrics that walk every open descriptor or handle, on the event loop, at
 * each scrape: `process_open_fds` lists /proc/self/fd with `readdirSync`, and the handles and the
 * resources are each walked twice (once for the gauge by type, once for the total). A process
 * with 3 000 connections to itself (6 000 sockets) could not turn its event loop for 11–26 ms
 * per scrape, and about 20 ms of the API's thread went to a scrape under the bench's load: every
 * request in flight waits for it, at every scrape. The same series are kept, with the same names
 * and labels: the descriptors are listed off the event loop, and each walk is done once per
 * scrape (the same process: 4–13 ms; the rest is `process._getActiveHandles` and its count).
 */
export const WALKING_DEFAULT_METRICS = [
  'process_open_fds',
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
];

function replaceWalkingDefaults(registry) {
  for (const name of WALKING_DEFAULT_METRICS) registry.removeSingleMetric(name);
  const registers = [registry];
  if (process.platform === 'linux') {
    new client.Gauge({
      name: 'process_open_fds',
      help: 'Number of open file descriptors.',
      registers,
      async collect() {
        try {
          // Minus the descriptor the listing itself holds open while it reads.
          this.set((await readdir('/proc/self/fd')).length - 1);
        } catch {
          // No /proc: the series stays as it was.
        }
      },
    });
  }
  const handleTypes = oncePerScrape(() =>
    countBy(process._getActiveHandles(), (h) => h?.constructor?.name),
  );
  const resourceTypes = oncePerScrape(() => countBy(process.getActiveResourcesInfo(), (r) => r));
  const byType = (name, help, counts) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['type'],
      registers,
      collect() {
        this.reset();
        for (const [type, count] of counts().types) this.set({ type }, count);
      },
    });
  const total = (name, help, counts) =>
    new client.Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(counts().total);
      },
    });
  byType(
    'nodejs_active_handles',
    'Number of active libuv handles grouped by handle type. Every handle type is C++ class name.',
    handleTypes,
  );
  total('nodejs_active_handles_total', 'Total number of active handles.', handleTypes);
  byType(
    'nodejs_active_resources',
    'Number of active resources that are currently keeping the event loop alive, grouped by async resource type.',
    resourceTypes,
  );
  total('nodejs_active_resources_total', 'Total number of active resources.', resourceTypes);
}

/**
 * `read()` at most once per scrape: a registry calls every metric's `collect` in one synchronous
 * pass, so the value is dropped again at the next microtask.
 */
function oncePerScrape(read) {
  let value = null;
  return () => {
    if (value === null) {
      value = read();
      queueMicrotask(() => {
        value = null;
      });
    }
    return value;
  };
}

/** `{ types: Map(key → count), total }` of a list, skipping items without a key. */
function countBy(items, keyOf) {
  const types = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (key) types.set(key, (types.get(key) ?? 0) + 1);
  }
  return { types, total: items.length };
}

/**
 * A histogram for observations made thousands of times a second (every answer): prom-client's
 * `observe` validates the label names and builds a hash string of the labels on every call (4 %
 * of the API's time under polling load). Here the caller names the series with a key it already
 * has (`GET /api/v1/user/whoami 200`), and an observation is a map look-up and three additions.
 * Registered in a prom-client registry, it reads out exactly as prom-client's own histogram does
 * (same series, buckets, `_sum` and `_count`; test/metrics.test.mjs compares the two).
 */
export class SeriesHistogram {
  /** @param {{ name: string, help: string, labelNames: string[], buckets: number[] }} options */
  constructor({ name, help, labelNames, buckets }) {
    this.name = name;
    this.help = help;
    this.type = 'histogram';
    this.aggregator = 'sum';
    this.labelNames = [...labelNames];
    this.upperBounds = [...buckets].sort((a, b) => a - b);
    /** key → { labels, counts (per bucket, not cumulative; the last is above every bound), sum, count } */
    this.series = new Map();
  }

  /**
   * Counts `value` in the series `key` (any string that differs exactly when the labels do;
   * one histogram, one way of making keys); `labels()` gives the series' labels the first time
   * the key is seen.
   */
  observeKeyed(key, labels, value) {
    let series = this.series.get(key);
    if (series === undefined) {
      const given = labels();
      const own = {};
      for (const name of this.labelNames) if (given[name] !== undefined) own[name] = given[name];
      series = {
        labels: own,
        counts: new Array(this.upperBounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]) bucket += 1;
    series.counts[bucket] += 1;
    series.sum += value;
    series.count += 1;
  }

  reset() {
    this.series.clear();
  }

  /**
   * What prom-client's registry formats (its histogram's own shape: the bucket's `le` as the
   * value's labels, the series' labels shared), so the text is the same line for line.
   */
  async getForPromString() {
    const values = [];
    // Buckets carry an exemplar slot (null: none), sums and counts none, as prom-client's do.
    const value = (labels, v, suffix, sharedLabels, exemplar) => ({
      labels,
      sharedLabels,
      value: v,
      metricName: `${this.name}${suffix}`,
      exemplar,
    });
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += counts[i];
        values.push(value({ le }, cumulative, '_bucket', labels, null));
      });
      values.push(
        value({ le: '+Inf' }, count, '_bucket', labels, null),
        value({}, sum, '_sum', labels, undefined),
        value({}, count, '_count', labels, undefined),
      );
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }

  /** The same as JSON (`getMetricsAsJSON`): each value's labels and the shared ones together. */
  async get() {
    const data = await this.getForPromString();
    data.values = data.values.map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return data;
  }
}

/**
 * Counts made on every request (cache look-ups) kept as plain numbers and handed to prom-client's
 * counter only when it is read (as its `collect`), instead of one label validation and hash per
 * increment. `counter(labels)` gives the function that counts one series.
 */
export function pendingCounts() {
  /** @type {Map<string, { labels: Record<string, string>, pending: number }>} */
  const series = new Map();
  return {
    /** A function that adds one to the series with these labels. */
    counter(labels) {
      const key = JSON.stringify(labels);
      const entry = series.get(key) ?? { labels, pending: 0 };
      series.set(key, entry);
      return () => {
        entry.pending += 1;
      };
    },
    /** prom-client's `collect` of the counter: adds what was counted since the last read. */
    collect() {
      for (const entry of series.values()) {
        // Zero too, so a series exists from its first look-up on, as prom-client's labels() does.
        this.inc(entry.labels, entry.pending);
        entry.pending = 0;
      }
    },
  };
}

const digest = (text) => createHash('sha256').update(text).digest();

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function tokenMatches(given, expected) {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Times every answer of `app` into `metrics.httpRequestDuration` and serves GET /metrics. The
 * route exists only with a token: without one it answers 404 like any unknown URL (nothing
 * tells a scanner that metrics are there); a missing or wrong `Authorization: Bearer` is 401.
 * `routeConfig` is the route's Fastify config (the API declares its access there); `notFound`
 * answers while there is no token (default: the server's own not-found handler).
 */
export function serveMetrics(
  app,
  { metrics, token, routeConfig = {}, notFound = (_request, reply) => reply.callNotFound() },
) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? UNMATCHED_ROUTE;
    metrics.httpRequestDuration.observeKeyed(
      `${request.method} ${route} ${reply.statusCode}`,
      () => ({ method: request.method, route, status_code: String(reply.statusCode) }),
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', { config: routeConfig, schema: { hide: true } }, async (request, reply) => {
    if (!token) return notFound(request, reply);
    const [scheme, given] = String(request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !given || !tokenMatches(given, token)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send({ detail: 'A valid metrics token is required.' });
    }
    reply.header('Content-Type', metrics.registry.contentType).header('Cache-Control', 'no-store');
    return metrics.registry.metrics();
  });
}
