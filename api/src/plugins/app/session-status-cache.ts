import fp from 'fastify-plugin';
import {
  createSessionStatusCache,
  type SessionStatusCache,
} from '../../services/sessions/session-status-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** The launch screen's polled session statuses; the session services drop what they change. */
    sessionStatuses: SessionStatusCache;
  }
}

export const sessionStatusCachePlugin = fp(
  async (app) => {
    // PGlite is one process, so every status change passes through this cache and it can live
    // long; on PostgreSQL other API processes may change a status, so it lives under a poll.
    app.decorate(
      'sessionStatuses',
      createSessionStatusCache(app.db.kind === 'postgres' ? 800 : 30_000, () =>
        app.clock.now().getTime(),
      ),
    );
  },
  { name: 'session-status-cache', dependencies: ['db', 'clock'] },
);
