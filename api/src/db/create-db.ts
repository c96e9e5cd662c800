import type { Db } from './driver';
import { createPgDb } from './pg-driver';
import { createPgliteDb } from './pglite-driver';

export interface DbSettings {
  databaseUrl: string | undefined;
  /** Connections of the PostgreSQL pool (default: pg-driver's). */
  databasePoolSize?: number;
  pgliteDir: string;
}

export async function createDb(settings: DbSettings): Promise<Db> {
  if (settings.databaseUrl) {
    const db = createPgDb({
      connectionString: settings.databaseUrl,
      ...(settings.databasePoolSize ? { max: settings.databasePoolSize } : {}),
    });
    // Fail at start, not on the first request, when the server is unreachable.
    await db.query('select 1');
    return db;
  }
  return createPgliteDb(settings.pgliteDir);
}
