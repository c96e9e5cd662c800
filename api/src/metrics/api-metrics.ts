import { createMetrics, pendingCounts } from '@portal/service-kit';

/** Query durations: a poll's query takes well under a millisecond, a report list's tens. */
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Every series the API reports on /metrics (docs/deploy.md, "Health and metrics"), besides the
 * request histogram and Node's defaults from service-kit. Label values come from fixed sets
 * (route templates, statement kinds, outbox kinds, job names, LTI error codes), never from input.
 */
export function createApiMetrics() {
  const metrics = createMetrics('api');
  // Two or three look-ups per request: counted as numbers, added to the counter when it is read.
  const cacheCounts = pendingCounts();
  return {
    cacheCounts,
    ...metrics,
    dbQueryDuration: metrics.histogram({
      name: 'db_query_duration_seconds',
      help: 'Database statements by driver (pglite, postgres) and statement kind',
      labelNames: ['driver', 'statement'],
      buckets: QUERY_BUCKETS,
    }),
    jobRuns: metrics.counter({
      name: 'job_runs_total',
      help: 'Runs of the API’s timers (outbox rounds, daily jobs, session close), by job',
      labelNames: ['job'],
    }),
    jobFailures: metrics.counter({
      name: 'job_failures_total',
      help: 'Runs that failed, by job',
      labelNames: ['job'],
    }),
    ltiLaunches: metrics.counter({
      name: 'lti_launches_total',
      help: 'LTI launches, accepted or refused, by outcome and refusal code',
      labelNames: ['outcome', 'code'],
    }),
    cacheLookups: metrics.counter({
      name: 'cache_lookups_total',
      help: 'Look-ups of the in-process caches (auth_user, access_token, session_status), by result (hit; miss: loaded; shared: waited for a load already under way)',
      labelNames: ['cache', 'result'],
      collect: cacheCounts.collect,
    }),
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;

/**
 * Where a cache reports its look-ups: `hit` from memory, `miss` loaded, `shared` waited for
 * the load another look-up started (no statement of its own).
 */
export type CacheLookup = (result: 'hit' | 'miss' | 'shared') => void;

export function cacheLookupCounter(metrics: ApiMetrics, cache: string): CacheLookup {
  const counters = {
    hit: metrics.cacheCounts.counter({ cache, result: 'hit' }),
    miss: metrics.cacheCounts.counter({ cache, result: 'miss' }),
    shared: metrics.cacheCounts.counter({ cache, result: 'shared' }),
  };
  return (result) => counters[result]();
}
