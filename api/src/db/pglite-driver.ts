import { mkdir } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, QueryResult } from './driver';

function wrap(target: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const res = await target.query<T>(sql, [...params]);
      // PGlite reports affectedRows 0 for a SELECT, so the row count comes from the rows when there are any.
      return { rows: res.rows, rowCount: res.rows.length || (res.affectedRows ?? 0) };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

/** `dataDir` is a folder on disk, or `memory://` for a throw-away database. */
export async function createPgliteDb(dataDir: string): Promise<Db> {
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  // pg_trgm: the report filter's trigram indexes (migration 0012), as on PostgreSQL.
  const pg = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  // One process, no one to tell: migration 0030's change-notice triggers stay quiet here.
  await pg.exec("set portal.announce_changes = 'off'");
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    // PGlite holds one connection and queues other queries while a transaction runs.
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
