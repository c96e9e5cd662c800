import fp from 'fastify-plugin';
import { closeExpiredSessions as closeExpired } from '../../services/sessions/session-changes';

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
 */
export const sessionExpiryPlugin = fp(
  async (app) => {
    const { config } = app;
    const lifetime = {
      maxAgeSeconds: config.sessionTokenMaxAgeSeconds,
      idleSeconds: config.sessionTokenIdleSeconds,
    };
    let running: Promise<number> | null = null;

    const closeExpiredSessions = (): Promise<number> => {
      // A slow database must not pile up runs: a tick during a run joins it.
      running ??= closeExpired(app, lifetime)
        .then((uuids) => {
          if (uuids.length > 0) app.log.info({ closed: uuids.length }, 'expired sessions closed');
          return uuids.length;
        })
        .finally(() => {
          running = null;
        });
      return running;
    };
    app.decorate('closeExpiredSessions', closeExpiredSessions);

    if (config.sessionCloseIntervalMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        closeExpiredSessions().catch((err: unknown) => {
          app.log.error({ err }, 'closing expired sessions failed');
        });
      }, config.sessionCloseIntervalMs);
      // The job never keeps the process alive on its own.
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      // The database closes after this hook; a run in flight must finish first.
      await running?.catch(() => undefined);
    });
  },
  { name: 'session-expiry', dependencies: ['config', 'db', 'session-status-cache'] },
);
