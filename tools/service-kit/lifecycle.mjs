import { createMetrics, serveMetrics } from './metrics.mjs';

// Readiness and draining, shared by every server process: a process that was asked to stop
// says so on /readyz at once, while it still finishes what it has.

/**
 * Whether this process is draining, and who wants to know when it starts (timers stop taking
 * work, the outbox stops claiming items). `drain()` is idempotent.
 */
export function createLifecycle() {
  let draining = false;
  const listeners = [];
  return {
    get draining() {
      return draining;
    },
    drain() {
      if (draining) return;
      draining = true;
      for (const listener of listeners.splice(0)) listener();
    },
    onDrain(listener) {
      if (draining) listener();
      else listeners.push(listener);
    },
  };
}

/** A readiness check that has not answered within this long counts as failed. */
export const READINESS_TIMEOUT_MS = 2000;

/**
 * GET /readyz: 200 `{status: "ready"}`, or 503 `{status: "unavailable", reason}` while draining or
 * when `check` (the process's own dependencies) names a reason, throws or takes longer than
 * `timeoutMs`. While draining every answer also carries `Connection: close`, so keep-alive clients
 * (a load balancer's pool) open their next request elsewhere instead of on a closing socket.
 */
export function serveReadiness(
  app,
  { lifecycle, check, failureReason = 'unavailable', timeoutMs = READINESS_TIMEOUT_MS, routeConfig = {}, schema = {} },
) {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (lifecycle.draining) reply.header('Connection', 'close');
    return payload;
  });
  app.get('/readyz', { config: routeConfig, schema }, async (request, reply) => {
    const reason = lifecycle.draining ? 'draining' : await checkWithin(check, timeoutMs, failureReason, request.log);
    if (reason) return reply.code(503).header('Cache-Control', 'no-store').send({ status: 'unavailable', reason });
    return reply.header('Cache-Control', 'no-store').send({ status: 'ready' });
  });
}

const TIMED_OUT = Symbol('timed out');

async function checkWithin(check, timeoutMs, failureReason, log) {
  if (!check) return null;
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  try {
    const outcome = await Promise.race([check().then((reason) => reason ?? null), timeout]);
    if (outcome === TIMED_OUT) {
      log.warn({ timeoutMs }, 'readiness check timed out');
      return failureReason;
    }
    return outcome;
  } catch (err) {
    log.warn({ err }, 'readiness check failed');
    return failureReason;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /metrics (request histogram and Node's defaults) and /readyz (draining only) for a server with
 * no dependencies of its own to report: the static servers and the stand-ins. Returns the
 * lifecycle to drain on a signal.
 */
export function serveOperationEndpoints(app, { service, metricsToken, lifecycle = createLifecycle(), notFound }) {
  serveMetrics(app, { metrics: createMetrics(service), token: metricsToken, ...(notFound ? { notFound } : {}) });
  serveReadiness(app, { lifecycle });
  return lifecycle;
}
