import fp from 'fastify-plugin';
import { scheduleJob } from '../../jobs/schedule-job';
import { sweepRateLimitCounters } from './rate-limit-store';

/**
 * Sweeps the shared rate-limit counters whose window ended (PostgreSQL only; PGlite counts in
 * memory). A plugin of its own: the rate limits register first of all request hooks, before the
 * lifecycle every timer follows (a draining instance starts no run).
 */
export const rateLimitSweepPlugin = fp(
  async (app) => {
    if (!app.config.rateLimitEnabled || app.db.kind !== 'postgres') return;
    scheduleJob(app, {
      name: 'rate_limit_sweep',
      everyMs: app.config.rateLimitWindowMs,
      run: () => sweepRateLimitCounters(app.db),
      onError: (err) => app.log.warn({ err }, 'sweeping rate-limit counters failed'),
    });
  },
  { name: 'rate-limit-sweep', dependencies: ['config', 'db', 'clock', 'lifecycle', 'metrics'] },
);
