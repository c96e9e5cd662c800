import fp from 'fastify-plugin';
import { serveMetrics } from '@portal/service-kit';
import { createApiMetrics, type ApiMetrics } from '../../metrics/api-metrics';
import { createOutboxRepository } from '../../repositories/outbox-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's Prometheus series (metrics/api-metrics.ts); counted whether or not /metrics is on. */
    metrics: ApiMetrics;
  }
}

/**
 * The API's metrics and GET /metrics (service-kit: 404 without METRICS_TOKEN, 401 without that
 * bearer token). Registered before the database so its statements are timed from the start;
 * the pool and outbox gauges are read when Prometheus scrapes, not on a timer.
 */
export const metricsPlugin = fp(
  async (app) => {
    const metrics = createApiMetrics();
    app.decorate('metrics', metrics);
    // Public as far as the portal's access rules go: the metrics token is the credential.
    serveMetrics(app, { metrics, token: app.config.metricsToken, routeConfig: { public: true } });
  },
  { name: 'metrics', dependencies: ['config'] },
);

/** The gauges read from the database at scrape time; needs the database (registered after it). */
export const databaseGaugesPlugin = fp(
  async (app) => {
    const { metrics, db } = app;
    metrics.gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state (busy, idle) and the pool size (max)',
      labelNames: ['state'],
      collect() {
        const stats = db.poolStats?.();
        if (!stats) return;
        this.set({ state: 'busy' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'max' }, stats.max);
      },
    });
    metrics.gauge({
      name: 'db_pool_waiting_queries',
      help: 'Queries waiting for a free PostgreSQL connection',
      collect() {
        const stats = db.poolStats?.();
        if (stats) this.set(stats.waiting);
      },
    });
    // Read at scrape time (every 15–60 s), one small grouped query per gauge.
    const outbox = createOutboxRepository(db);
    const outboxState = () => outbox.pendingByKind();
    metrics.gauge({
      name: 'outbox_items_pending',
      help: 'Outbox items not yet done, by kind',
      labelNames: ['kind'],
      async collect() {
        this.reset();
        for (const row of await outboxState()) this.set({ kind: row.kind }, row.items);
      },
    });
    metrics.gauge({
      name: 'outbox_oldest_item_age_seconds',
      help: 'Age of the oldest outbox item not yet done, by kind',
      labelNames: ['kind'],
      async collect() {
        this.reset();
        for (const row of await outboxState()) this.set({ kind: row.kind }, row.age);
      },
    });
  },
  { name: 'database-gauges', dependencies: ['metrics', 'db'] },
);
