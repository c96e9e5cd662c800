import fp from 'fastify-plugin';
import { scheduleJob } from '../../jobs/schedule-job';
import { closeExpiredSessions } from '../../services/sessions/session-changes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Closes open sessions whose simulator token expired; answers how many. Run by the timer. */
    closeExpiredSessions(): Promise<number>;
  }
}

/**
 * Sessions a simulator abandoned would otherwise stay open for ever and count against the
 * learner's open-session quota. Every SESSION_CLOSE_INTERVAL_SECONDS one UPDATE closes those whose
 * token expired; it is safe to run in several API processes at once (each session closes once).
 * A slow database must not pile up runs: a tick during a run joins it.
 */
export const sessionExpiryPlugin = fp(
  async (app) => {
    const { config } = app;
    const lifetime = {
      maxAgeSeconds: config.sessionTokenMaxAgeSeconds,
      idleSeconds: config.sessionTokenIdleSeconds,
    };
    const job = scheduleJob(app, {
      name: 'session_close',
      everyMs: config.sessionCloseIntervalMs,
      run: async () => {
        const uuids = await closeExpiredSessions(app, lifetime);
        if (uuids.length > 0) app.log.info({ closed: uuids.length }, 'expired sessions closed');
        return uuids.length;
      },
      onError: (err) => app.log.error({ err }, 'closing expired sessions failed'),
    });
    app.decorate('closeExpiredSessions', job.run);
  },
  { name: 'session-expiry', dependencies: ['config', 'clock', 'db', 'session-status-cache'] },
);
