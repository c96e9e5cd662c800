import type { Db } from '../../db/driver';
import type { SessionStatusCache } from './session-status-cache';

/** What the session use cases need of the app (the Fastify instance has all of it). */
export interface SessionDeps {
  db: Db;
  sessionStatuses: SessionStatusCache;
}
