import { once } from 'node:events';
import { finished, type Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db, Queryable, QueryResult } from './driver';
import { preparedName } from './prepared';

export interface PgOptions {
  connectionString: string;
  /** Puts every connection in this schema (tests use one schema per file). */
  searchPath?: string;
  max?: number;
  /** The polled reads' limits (tests shorten them); default POLLED_TIMEOUTS. */
  polledTimeouts?: { statementMs: number; answerMs: number };
}

function wrap(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const name = preparedName(sql);
      const res = await (name
        ? target.query({ name, text: sql, values: [...params] })
        : target.query(sql, [...params]));
      return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await target.query(sql);
    },
  };
}

/**
 * A pool whose `end` resolves once its connections are closed, not merely asked to close
 * (pg-pool's own resolves first): a database dropped or a server stopped right after would
 * otherwise end a connection still open, whose error nobody hears any more.
 */
function closablePool(config: pg.PoolConfig) {
  const pool = new pg.Pool(config);
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => open.add(client));
  pool.on('remove', (client) => open.delete(client));
  const end = async () => {
    await pool.end();
    const deadline = Date.now() + 5000;
    while (open.size > 0 && Date.now() < deadline) {
      await Promise.race([
        once(pool, 'remove'),
        new Promise((resolve) => setTimeout(resolve, 100)),
      ]);
    }
  };
  return { pool, end };
}

/** Connections of each process's pool for polled reads (Db.polled), beside DATABASE_POOL_SIZE. */
export const POLLED_POOL_SIZE = 4;

/**
 * Limits of the polled reads' connections. Their statements go one batch at a time per process
 * (db/statement-batches.ts: every rate-limit count and status miss of a moment in one), so one
 * statement that never finishes would hold up every later batch of its process, not only its
 * own request. PostgreSQL cancels a batch that runs past `statementMs` (a lock or a stalled
 * server); the client gives up past `answerMs` (a connection the network dropped mid-statement,
 * which no server-side limit ends) and drops that connection. Either fails the batch's requests,
 * and the next batch goes. A batch takes milliseconds; the launch screen polls every second and
 * the simulator's client waits 15 s.
 */
export const POLLED_TIMEOUTS = { statementMs: 5_000, answerMs: 15_000 };

/** How the dedicated connections show in pg_stat_activity (operators, tests). */
export const DEDICATED_CLIENT_NAME = 'portal-api change notices';

export function createPgDb(options: PgOptions): Db {
  const max = options.max ?? 10;
  const settings = {
    connectionString: options.connectionString,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  };
  const main = closablePool({ ...settings, max });
  const polledTimeouts = options.polledTimeouts ?? POLLED_TIMEOUTS;
  const polled = closablePool({
    ...settings,
    max: POLLED_POOL_SIZE,
    statement_timeout: polledTimeouts.statementMs,
    query_timeout: polledTimeouts.answerMs,
  });
  const pool = main.pool;
  return {
    kind: 'postgres',
    ...wrap(pool),
    polled: wrap(polled.pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await Promise.all([main.end(), polled.end()]);
    },
    // Keep-alive, so a connection the network dropped is noticed rather than waited on for ever.
    dedicatedClient: () =>
      new pg.Client({ ...settings, keepAlive: true, application_name: DEDICATED_CLIENT_NAME }),
    copyCsvOut: (select, settings) => copyCsvOut(pool, select, settings),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max,
    }),
  };
}

async function copyCsvOut(
  pool: pg.Pool,
  select: string,
  settings: Record<string, string>,
): Promise<Readable> {
  const client = await pool.connect();
  let released = false;
  // An error drops the connection instead of returning it: a COPY cut off midway leaves it
  // streaming rows no one reads (pg then closes the socket, which ends the server's COPY).
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  try {
    await client.query('begin read only');
    const names = Object.keys(settings);
    if (names.length > 0) {
      await client.query(
        `select ${names.map((_, n) => `set_config($${2 * n + 1}, $${2 * n + 2}, true)`).join(', ')}`,
        names.flatMap((name) => [name, settings[name]]),
      );
    }
  } catch (error) {
    release(error as Error);
    throw error;
  }
  const copy = client.query(copyTo(`copy (${select}) to stdout (format csv)`));
  finished(copy, (error) => {
    if (error) release(error);
    else
      client.query('commit').then(
        () => release(),
        (commitError: Error) => release(commitError),
      );
  });
  return copy;
}
