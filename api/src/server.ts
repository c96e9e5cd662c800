import cluster from 'node:cluster';
import { closeOnSignals, createLifecycle, loadOrExit } from '@portal/service-kit';
import { loadConfig } from './config';
import { onSupervisorShutdown, superviseInstances } from './instances';

const config = loadOrExit(() => loadConfig());

/**
 * Connections that have arrived and wait for the API to take them. A busy Node process takes one
 * per event-loop turn (libuv since 1.45 accepts once per poll), so a burst of new connections — a
 * class opening the portal together, a load balancer refilling its pool — waits in this queue; with
 * Node's default of 511 the excess was dropped and the browsers retried after 1, 3, 7 s
 * (api/docs/latency-journal.md, "Night: connections accepted one per turn"). Linux caps it at
 * net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

if (cluster.isPrimary && config.instances > 1) {
  // API_INSTANCES > 1: this process only starts and watches the instances that run serve().
  superviseInstances({ instances: config.instances, logLevel: config.logLevel });
} else {
  await serve();
}

async function serve() {
  // Tracing must patch http, pg and undici before the app imports them; without a collector the
  // SDK is not loaded at all (the app is still imported dynamically, which costs nothing).
  const tracing = config.otlpEndpoint
    ? await import('@portal/tracing').then(async (otel) => ({
        otel,
        sdk: await otel.startTracing({ serviceName: 'portal-api', endpoint: config.otlpEndpoint! }),
      }))
    : null;

  const { buildApp } = await import('./app');
  const lifecycle = createLifecycle();
  const app = await buildApp({
    config,
    lifecycle,
    ...(tracing ? { traceRoutes: tracing.otel.nameSpansByRoute } : {}),
  });

  // SIGTERM: unready at once, open for SHUTDOWN_DRAIN_SECONDS (the load balancer sees /readyz
  // fail), then Fastify's close: no new connections, idle keep-alive ones closed, requests in
  // flight and the outbox round finished, the database closed; past SHUTDOWN_GRACE_SECONDS exit 1.
  // An instance under API_INSTANCES is told to close by its supervisor (a message, no signal).
  const closing = closeOnSignals(
    {
      logger: app.log,
      lifecycle,
      drainDelay: config.shutdownDrainMs,
      delay: config.shutdownGraceMs,
    },
    async () => {
      await app.close();
      await tracing?.sdk.shutdown();
    },
  );
  onSupervisorShutdown((signal) => closing.close(signal));

  try {
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (error) {
    app.log.error({ err: error }, 'could not start');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
}
