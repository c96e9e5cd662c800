import type { SessionStatusValue } from '@portal/contract';
import fp from 'fastify-plugin';
import { cacheLookupCounter } from '../../metrics/api-metrics';
import {
  createSessionStatusLoads,
  type OwnedSessionKey,
} from '../../repositories/session-repository';
import {
  createSessionStatusCache,
  type SessionStatusCache,
} from '../../services/sessions/session-status-cache';

/** Bounds what a lost change notice could cost; changes themselves drop their entries. */
export const SESSION_STATUS_TTL_MS = 30_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The launch screen's polled session statuses; the session services drop what they change. */
    sessionStatuses: SessionStatusCache;
    /** The statuses the cache does not hold, loaded in batches (SessionDeps). */
    sessionStatusLoads: (key: OwnedSessionKey) => Promise<SessionStatusValue | null>;
  }
}

export const sessionStatusCachePlugin = fp(
  async (app) => {
    // Every status change passes through this cache (PGlite: one process) or is announced to it
    // (PostgreSQL: change notices from the other processes), so it can live long.
    const cache = createSessionStatusCache(
      SESSION_STATUS_TTL_MS,
      () => app.clock.now().getTime(),
      () => app.changeNotices.live,
      cacheLookupCounter(app.metrics, 'session_status'),
    );
    app.changeNotices.subscribe({
      onNotice: (notice) => {
        if (notice.kind !== 'session') return;
        // Another process's change (or this one's own, coming back): moved, not dropped, so the
        // session's next poll on this process does not read the database either.
        if (notice.status) cache.advance([{ uuid: notice.id, status: notice.status }]);
        else cache.forget([notice.id]);
      },
      flush: () => cache.forgetAll(),
    });
    app.decorate('sessionStatuses', cache);
    // On the polled reads' own connections: a miss does not queue behind transactions.
    app.decorate('sessionStatusLoads', createSessionStatusLoads(app.db.polled ?? app.db));
  },
  { name: 'session-status-cache', dependencies: ['db', 'clock', 'change-notices'] },
);
