/**
 * The Node flags the API runs with, wherever it is started: `npm start` (scripts/services.mjs),
 * the container (deploy/api.Dockerfile), `pnpm --filter @portal/api start` and the benches. Those
 * that cannot import this list spell it out; test/node-flags.test.ts keeps them in step. A node
 * cluster's instances (API_INSTANCES) inherit the flags of the process that forks them.
 *
 * `--max-semi-space-size=64` (MB; Node 20 starts at 16): the young generation, where a request's
 * short-lived objects live. Under 1 000 polling learners (over 2 000 requests a second) a 16 MB
 * semi-space fills many times a second; what survives two scavenges (the objects of requests still
 * waiting on the database) is promoted, and collecting it later is the old generation's work. A
 * CPU profile of such a run held the event loop in collections of up to 31, 24 and 21 ms. With
 * 64 MB, in five runs of `bench:api` on PostgreSQL (issue #24 point 5), garbage collection took
 * 0.4–0.8 % of the API's time against 1.3–1.7 % in the runs without. The p99s moved less than
 * from one run to the next: other stalls (api/README, "Latency against the machine's own floor")
 * dominate them. The young generation grows to that size only under such an allocation rate; at
 * 1 000 whoami a second the process held 284 MB instead of 234.
 *
 * `--heap-growing-percent=100`: after a full (mark-compact) collection, the old generation may grow
 * to twice what survived before the next one. Left to itself, V8 picks that factor from how fast it
 * collected against how fast the program allocated; under polling load it picked one barely above
 * 1, so every few MB promoted (a few seconds) started a full collection that freed about as much
 * and held the event loop 8–19 ms, and the polls behind it longer (api/docs/latency-journal.md,
 * "Evening: a full collection every few seconds"). Whether a process fell into that regime varied
 * from one start to the next. With the factor fixed, full collections came 40–46 s apart in 90 s
 * windows of that load (api/docs/latency-journal.md, "Night: a token check every minute"), not
 * minutes: V8 started marking 80–105 MB before the doubled limit (what headroom it keeps for a
 * young generation of this size, I believe). The price is up to that much more heap.
 */
export const API_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=64',
  '--heap-growing-percent=100',
];
