import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import client from 'prom-client';
import { createMetrics, pendingCounts, SeriesHistogram } from '../index.mjs';
import { WALKING_DEFAULT_METRICS } from '../metrics.mjs';

const BUCKETS = [0.005, 0.01, 0.025, 0.1, 1];
// On a bound, between bounds, below the first, above the last, and zero.
const OBSERVATIONS = [
  [{ method: 'GET', route: '/a', status_code: '200' }, 0.005],
  [{ method: 'GET', route: '/a', status_code: '200' }, 0.0071],
  [{ method: 'GET', route: '/a', status_code: '200' }, 0.5],
  [{ method: 'GET', route: '/a', status_code: '200' }, 0],
  [{ method: 'GET', route: '/a', status_code: '404' }, 3.2],
  [{ method: 'POST', route: '/b "quoted"\nline', status_code: '201' }, 0.02],
];

function registry() {
  const r = new client.Registry();
  r.setDefaultLabels({ service: 'test' });
  return r;
}

test('a SeriesHistogram reads out exactly as prom-client’s histogram of the same observations', async () => {
  const theirs = registry();
  const reference = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer',
    labelNames: ['method', 'route', 'status_code'],
    buckets: BUCKETS,
    registers: [theirs],
  });
  const ours = registry();
  const fast = new SeriesHistogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer',
    labelNames: ['method', 'route', 'status_code'],
    buckets: BUCKETS,
  });
  ours.registerMetric(fast);

  for (const [labels, value] of OBSERVATIONS) {
    reference.observe(labels, value);
    fast.observeKeyed(
      `${labels.method} ${labels.route} ${labels.status_code}`,
      () => labels,
      value,
    );
  }
  const expected = await theirs.metrics();
  assert.equal(await ours.metrics(), expected);
  assert.match(
    expected,
    /http_request_duration_seconds_bucket\{le="0.005",service="test",method="GET",route="\/a",status_code="200"\} 2/,
  );
  assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());

  fast.reset();
  reference.reset();
  assert.equal(await ours.metrics(), await theirs.metrics());
});

test('pending counts reach the counter when it is read, and only once', async () => {
  const r = registry();
  const pending = pendingCounts();
  const counter = new client.Counter({
    name: 'cache_lookups_total',
    help: 'Look-ups',
    labelNames: ['cache', 'result'],
    collect: pending.collect,
    registers: [r],
  });
  const hit = pending.counter({ cache: 'user', result: 'hit' });
  const miss = pending.counter({ cache: 'user', result: 'miss' });
  pending.counter({ cache: 'token', result: 'hit' });
  for (let i = 0; i < 5; i += 1) hit();
  miss();
  const values = async () =>
    Object.fromEntries(
      (await counter.get()).values.map((v) => [`${v.labels.cache}/${v.labels.result}`, v.value]),
    );
  assert.deepEqual(await values(), { 'user/hit': 5, 'user/miss': 1, 'token/hit': 0 });
  hit();
  assert.deepEqual(await values(), { 'user/hit': 6, 'user/miss': 1, 'token/hit': 0 });
  assert.match(
    await r.metrics(),
    /cache_lookups_total\{cache="user",result="hit",service="test"\} 6/,
  );
});

/** Counts calls of `object[name]` while `run` runs. */
async function countingCalls(object, name, run) {
  const original = object[name];
  let calls = 0;
  object[name] = function counted(...args) {
    calls++;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    object[name] = original;
  }
  return calls;
}

/**
 * A server with `count` connections to it open, both ends accepted (a server's end becomes an
 * active handle only once accepted), closed by the returned function.
 */
async function openSockets(count) {
  let accepted = 0;
  let allAccepted;
  const acceptedAll = new Promise((resolve) => (allAccepted = resolve));
  const server = net.createServer(() => {
    if (++accepted === count) allAccepted();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sockets = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = net.connect(server.address().port, '127.0.0.1');
      await once(socket, 'connect');
      return socket;
    }),
  );
  await acceptedAll;
  // Each accepted end starts reading in a later tick.
  await new Promise((resolve) => setImmediate(resolve));
  return () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
}

const valueOf = (text, series) => {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${series} `) || l.startsWith(`${series}{`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

test('a scrape walks the handles and the resources once each and lists no descriptors on the event loop', async () => {
  const close = await openSockets(50);
  try {
    const { registry } = createMetrics('test');
    const scrape = () => registry.metrics();
    await scrape();
    assert.equal(await countingCalls(process, '_getActiveHandles', scrape), 1);
    assert.equal(await countingCalls(process, 'getActiveResourcesInfo', scrape), 1);
    assert.equal(await countingCalls(fs, 'readdirSync', scrape), 0);
  } finally {
    close();
  }
});

test('the walking default metrics keep prom-client’s series, names, labels and values', async () => {
  const close = await openSockets(50);
  try {
    const ours = await createMetrics('test').registry.metrics();
    const reference = registry();
    client.collectDefaultMetrics({ register: reference });
    const theirs = await reference.metrics();
    for (const name of WALKING_DEFAULT_METRICS) {
      const type = (text) => text.split('\n').find((l) => l.startsWith(`# TYPE ${name} `));
      assert.equal(type(ours), type(theirs), name);
    }
    // 50 client sockets and their 50 server ends, both of this process.
    assert.ok(valueOf(ours, 'nodejs_active_handles_total') >= 100);
    assert.equal(
      valueOf(ours, 'nodejs_active_handles_total'),
      valueOf(theirs, 'nodejs_active_handles_total'),
    );
    assert.equal(
      valueOf(ours, 'nodejs_active_handles{type="Socket",service="test"}'),
      valueOf(theirs, 'nodejs_active_handles{type="Socket",service="test"}'),
    );
    assert.equal(
      valueOf(ours, 'nodejs_active_resources{type="TCPSocketWrap",service="test"}'),
      valueOf(theirs, 'nodejs_active_resources{type="TCPSocketWrap",service="test"}'),
    );
    // Requests and timers in flight differ from one scrape to the next (a scrape's own reads).
    const resources = (text) => valueOf(text, 'nodejs_active_resources_total');
    assert.ok(resources(ours) >= 100);
    assert.ok(Math.abs(resources(ours) - resources(theirs)) <= 2);
    if (process.platform === 'linux') {
      const listed = fs.readdirSync('/proc/self/fd').length - 1;
      assert.equal(valueOf(ours, 'process_open_fds{service="test"}'), listed);
      assert.ok(listed >= 100);
    }
  } finally {
    close();
  }
});
