import fp from 'fastify-plugin';
import { createChangeListener, type ChangeNotice } from '../../db/change-notices';

/** A cache that other processes' changes can make stale. */
export interface ChangeSubscriber {
  /** Drop what the notice names. */
  onNotice(notice: ChangeNotice): void;
  /** Drop everything: notices may have been missed. */
  flush(): void;
}

export interface ChangeNotices {
  /**
   * Whether a cache may answer from memory now: always with PGlite (one process, whose own writes
   * drop what they change), on PostgreSQL only while the listener hears every notice.
   */
  readonly live: boolean;
  subscribe(subscriber: ChangeSubscriber): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Other API processes' changes, for the caches (src/db/change-notices.ts). */
    changeNotices: ChangeNotices;
  }
}

/**
 * On PostgreSQL one connection of this process listens for the change notices migration 0030's
 * triggers send, and every subscribed cache drops what they name, so a change made through any
 * process (or in SQL) shows in every other within milliseconds. While that connection is down
 * the caches are bypassed, and when it is back they are flushed (notices sent meanwhile are
 * lost). PGlite is one process: the services' own after-commit forgets are all there is.
 */
export const changeNoticesPlugin = fp(
  async (app) => {
    const subscribers: ChangeSubscriber[] = [];
    const flush = () => {
      for (const s of subscribers) s.flush();
    };
    const dedicatedClient = app.db.dedicatedClient?.bind(app.db);
    if (app.db.kind !== 'postgres' || !dedicatedClient) {
      app.decorate('changeNotices', {
        live: true,
        subscribe: (s: ChangeSubscriber) => void subscribers.push(s),
      });
      return;
    }
    const listener = createChangeListener({
      connect: dedicatedClient,
      log: app.log,
      onNotice: (notice) => {
        if (notice.kind === 'all') return flush();
        for (const s of subscribers) s.onNotice(notice);
      },
      onLiveChange: flush,
    });
    app.decorate('changeNotices', {
      get live() {
        return listener.live;
      },
      subscribe: (s: ChangeSubscriber) => void subscribers.push(s),
    });
    await listener.start();
    app.addHook('onClose', () => listener.close());
  },
  { name: 'change-notices', dependencies: ['db'] },
);
