import type { SessionStatusValue } from '@portal/contract';
import type { Db } from '../../db/driver';
import type { OwnedSessionKey } from '../../repositories/session-repository';
import type { SessionStatusCache } from './session-status-cache';

/** What the session use cases need of the app (the Fastify instance has all of it). */
export interface SessionDeps {
  db: Db;
  sessionStatuses: SessionStatusCache;
  /** What a poll that misses `sessionStatuses` reads: batched, on the polled connections. */
  sessionStatusLoads: (key: OwnedSessionKey) => Promise<SessionStatusValue | null>;
}
