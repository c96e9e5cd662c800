// Prometheus metrics for every server process: one registry per process, the request histogram
// by route template, and GET /metrics behind a bearer token. prom-client does the format.
import { createHash, timingSafeEqual } from 'node:crypto';
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
  const inRegistry = (options) => ({ ...options, registers: [registry] });
  const metrics = {
    registry,
    counter: (options) => new client.Counter(inRegistry(options)),
    gauge: (options) => new client.Gauge(inRegistry(options)),
    histogram: (options) => new client.Histogram(inRegistry(options)),
  };
  metrics.httpRequestDuration = metrics.histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by route template (never the raw URL) and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_BUCKETS,
  });
  return metrics;
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
export function serveMetrics(app, { metrics, token, routeConfig = {}, notFound = (_request, reply) => reply.callNotFound() }) {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions?.url ?? UNMATCHED_ROUTE,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get(
    '/metrics',
    { config: routeConfig, schema: { hide: true } },
    async (request, reply) => {
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
    },
  );
}
