/**
 * The Node flags the API runs with, wherever it is started: `npm start` (scripts/services.mjs),
 * the container (deploy/api.Dockerfile), `pnpm --filter @portal/api start` and the benches. Those
 * that cannot import this list spell it out; test/node-flags.test.ts keeps them in step. A node
 * cluster's instances (API_INSTANCES) inherit the flags of the process that forks them.
 *
 * `--max-semi-space-size=64` (MB; Node 20 starts at 16): the young generation, where a request's
 * short-lived objects live. Under 1 000 polling learners (over 2 000 requests a second) a 16 MB
 * semi-space filled many times a second, objects of requests still waiting on the database
 * survived two scavenges and were promoted, and the old generation's collections that followed
 * held the one event loop for up to 30 ms at a time. With 64 MB, in `bench:api` on PostgreSQL
 * (two pairs of runs, issue #24 point 5): garbage collection 0.7–0.8 % of the time instead of
 * 1.4–1.6 %, the event loop's longest delay 36–46 ms instead of 50–141 ms, whoami's p99 2.04× and
 * 2.36× the bare route's instead of 3.04× and 4.52×. The young generation grows to that size only
 * under such an allocation rate; at 1 000 whoami a second the process held 284 MB instead of 234.
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
