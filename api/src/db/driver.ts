import type { Readable } from 'node:stream';
import type pg from 'pg';

/**
 * The one database interface the rest of the API sees. PGlite (embedded default) and PostgreSQL
 * (DATABASE_URL) both sit behind it, so repositories and migrations run the same SQL on either.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  /** One statement with `$1…` placeholders. */
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: a new connection outside the pool, not yet connected, with the pool's
   * settings. For LISTEN (src/db/change-notices.ts), which needs a connection of its own.
   */
  dedicatedClient?(): pg.Client;
  /**
   * PostgreSQL only: `COPY (select) TO STDOUT (FORMAT csv)` as a byte stream, on a pool connection
   * of its own in a read-only transaction. COPY takes no bind parameters, so the select reads its
   * inputs with `current_setting(name)` from `settings`, which are set for that transaction only
   * through bound parameters. The stream reads the connection only as fast as it is read (a
   * paused reader stops the server); destroying it ends the COPY and drops the connection.
   */
  copyCsvOut?(select: string, settings: Record<string, string>): Promise<Readable>;
  /**
   * PostgreSQL only: a few connections of their own (POLLED_POOL_SIZE) for the one-row reads the
   * launch screen polls every second (batches of the session statuses not in memory) and the
   * rate-limit counters' batches, which every signed-in request waits for. On the main
   * pool such a read queued behind transactions whose connections wait for the event loop between
   * their statements: a second and more under load (api/README, "Where the time goes").
   */
  polled?: Queryable;
  /** The connection pool's state (PostgreSQL; PGlite is one connection and has none). */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
  max: number;
}
