import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Queryable } from '../../db/driver';
import { prepared } from '../../db/prepared';

/**
 * @fastify/rate-limit's `store` on PostgreSQL (migration 0030's `rate_limit_counters`), so every
 * API process counts against the same budgets: a window per key that starts with its first
 * request (as the package's memory store counts), counted with one upsert that answers the count
 * and what is left of the window. Times are the database's clock's, one clock for every process.
 * A Redis store would do the same with one more service to run; PostgreSQL is already there.
 */

/** `incr`: counts one request, opening a new window when the key's last one is over. */
const INCREMENT_SQL = prepared(
  `
  with clock as (
    select (extract(epoch from statement_timestamp()) * 1000)::bigint as now_ms,
           $2::bigint as window_ms
  )
  insert into rate_limit_counters as c (key, window_start, window_end, hits)
  select $1, now_ms, now_ms + window_ms, 1 from clock
  on conflict (key) do update
     set hits = case when c.window_end <= excluded.window_start then 1 else c.hits + 1 end,
         window_start = case when c.window_end <= excluded.window_start
                             then excluded.window_start else c.window_start end,
         window_end = case when c.window_end <= excluded.window_start
                           then excluded.window_end else c.window_end end
  returning c.hits, (c.window_end - (select now_ms from clock))::integer as ttl_ms`,
);

/** `read`: the count of the key's current window, without counting. */
const READ_SQL = prepared(
  `
  select c.hits, (c.window_end - now_ms)::integer as ttl_ms
    from rate_limit_counters c,
         (select (extract(epoch from statement_timestamp()) * 1000)::bigint as now_ms) clock
   where c.key = $1 and c.window_end > clock.now_ms`,
);

/** Keys whose window is over (by the database's clock): the next request opens a new one anyway. */
const SWEEP_SQL = `
  delete from rate_limit_counters
   where window_end <= (extract(epoch from statement_timestamp()) * 1000)::bigint`;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface CounterRow {
  hits: number;
  ttl_ms: number;
}

/** The store class @fastify/rate-limit instantiates, counting in `db`. */
export function databaseRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  const answer = (rows: CounterRow[], cb: Callback) => {
    const row = rows[0];
    cb(null, row ? { current: row.hits, ttl: Math.max(row.ttl_ms, 0) } : { current: 0, ttl: 0 });
  };
  class DatabaseRateLimitStore {
    incr(key: string, cb: Callback, timeWindow: number) {
      db.query<CounterRow>(INCREMENT_SQL, [key, timeWindow]).then(
        (res) => answer(res.rows, cb),
        (error: Error) => cb(error),
      );
    }

    read(key: string, cb: Callback) {
      db.query<CounterRow>(READ_SQL, [key]).then(
        (res) => answer(res.rows, cb),
        (error: Error) => cb(error),
      );
    }

    /** Every limiter shares the one table; their keys are prefixed with their class. */
    child() {
      return this;
    }
  }
  return DatabaseRateLimitStore;
}

/** Deletes the counters whose window is over; safe in every process at once. */
export async function sweepRateLimitCounters(db: Queryable): Promise<number> {
  return (await db.query(SWEEP_SQL)).rowCount;
}
