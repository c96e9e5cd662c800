import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Queryable } from '../../db/driver';
import { prepared } from '../../db/prepared';
import { statementBatches } from '../../db/statement-batches';

/**
 * @fastify/rate-limit's `store` on PostgreSQL (migration 0030's `rate_limit_counters`), so every
 * API process counts against the same budgets: a window per key that starts with its first
 * request (as the package's memory store counts). Times are the database's clock's, one clock for
 * every process. A Redis store would do the same with one more service to run; PostgreSQL is
 * already there.
 *
 * Every signed-in request reads its address's refused-credential count and counts itself against
 * its user's budget: with a statement each, the counters were the queue every request waited in
 * during a rolling restart (api/README, "Rolling restart", evening). They go in batches
 * (db/statement-batches.ts), one statement counting and reading every key of a batch. Nothing is
 * approximated: each request gets the count its own increment made, as with one statement each.
 */

/**
 * Counts every key of the batch by its number of requests (a key appears once), opening a new
 * window where the last one is over, and reads the keys that are only read; both answer the
 * count and what is left of the window. Keys come sorted, so two processes' batches lock their
 * rows in one order and cannot deadlock.
 */
const BATCH_SQL = prepared(
  `
  with clock as (
    select (extract(epoch from statement_timestamp()) * 1000)::bigint as now_ms
  ),
  counted as (
    insert into rate_limit_counters as c (key, window_start, window_end, hits)
    select t.key, clock.now_ms, clock.now_ms + t.window_ms, t.n
      from unnest($1::text[], $2::bigint[], $3::int[]) with ordinality as t(key, window_ms, n, i),
           clock
     order by t.i
    on conflict (key) do update
       set hits = case when c.window_end <= excluded.window_start
                       then excluded.hits else c.hits + excluded.hits end,
           window_start = case when c.window_end <= excluded.window_start
                               then excluded.window_start else c.window_start end,
           window_end = case when c.window_end <= excluded.window_start
                             then excluded.window_end else c.window_end end
    returning c.key, c.hits, c.window_end
  )
  select key, hits, (window_end - (select now_ms from clock))::integer as ttl_ms, true as counted
    from counted
  union all
  select c.key, c.hits, (c.window_end - clock.now_ms)::integer, false
    from rate_limit_counters c, clock
   where c.key = any($4::text[]) and c.window_end > clock.now_ms`,
);

/** Keys whose window is over (by the database's clock): the next request opens a new one anyway. */
const SWEEP_SQL = `
  delete from rate_limit_counters
   where window_end <= (extract(epoch from statement_timestamp()) * 1000)::bigint`;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;
type Counted = { current: number; ttl: number };
/** One request's use of a counter: counting on it (in its window) or reading it. */
type CounterUse = { key: string; windowMs: number } | { key: string; read: true };

interface CounterRow {
  key: string;
  hits: number;
  ttl_ms: number;
  counted: boolean;
}

/** One batch's uses of the counters in one statement (BATCH_SQL); results in the uses' order. */
async function countAndRead(db: Queryable, uses: readonly CounterUse[]): Promise<Counted[]> {
  // Per counted key, the positions of its uses in arrival order; a key appears once in the SQL.
  const increments = new Map<string, { windowMs: number; positions: number[] }>();
  const reads = new Set<string>();
  uses.forEach((use, position) => {
    if ('read' in use) {
      reads.add(use.key);
      return;
    }
    const entry = increments.get(use.key);
    if (entry) entry.positions.push(position);
    else increments.set(use.key, { windowMs: use.windowMs, positions: [position] });
  });
  const counted = [...increments.keys()].sort();
  const { rows } = await db.query<CounterRow>(BATCH_SQL, [
    counted,
    counted.map((key) => increments.get(key)!.windowMs),
    counted.map((key) => increments.get(key)!.positions.length),
    [...reads],
  ]);
  const results: Counted[] = uses.map(() => ({ current: 0, ttl: 0 }));
  const found = new Map<string, Counted>();
  for (const row of rows) {
    const ttl = Math.max(row.ttl_ms, 0);
    if (!row.counted) {
      found.set(row.key, { current: row.hits, ttl });
      continue;
    }
    // The key's count after all its uses of this batch: each gets the count its own increment
    // made, in arrival order.
    const { positions } = increments.get(row.key)!;
    positions.forEach((position, i) => {
      results[position] = { current: row.hits - positions.length + 1 + i, ttl };
    });
  }
  uses.forEach((use, position) => {
    if ('read' in use) results[position] = found.get(use.key) ?? { current: 0, ttl: 0 };
  });
  return results;
}

/** The counters of one process (statement-batches.ts), with @fastify/rate-limit's callbacks. */
export function createCounterBatcher(db: Queryable) {
  const counter = statementBatches<CounterUse, Counted>((uses) => countAndRead(db, uses));
  const answer = (promise: Promise<Counted>, cb: Callback) =>
    promise.then(
      (result) => cb(null, result),
      (error: unknown) => cb(error instanceof Error ? error : new Error(String(error))),
    );
  return {
    incr(key: string, windowMs: number, cb: Callback) {
      void answer(counter({ key, windowMs }), cb);
    },
    read(key: string, cb: Callback) {
      void answer(counter({ key, read: true }), cb);
    },
  };
}

/** The store class @fastify/rate-limit instantiates, counting in `db`. */
export function databaseRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  // One batcher for every limiter of the app: their keys are prefixed with their class.
  const batcher = createCounterBatcher(db);
  class DatabaseRateLimitStore {
    incr(key: string, cb: Callback, timeWindow: number) {
      batcher.incr(key, timeWindow, cb);
    }

    read(key: string, cb: Callback) {
      batcher.read(key, cb);
    }

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
