import { test } from 'node:test';
import assert from 'node:assert/strict';
import client from 'prom-client';
import { pendingCounts, SeriesHistogram } from '../index.mjs';

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
    fast.observeKeyed(`${labels.method} ${labels.route} ${labels.status_code}`, () => labels, value);
  }
  const expected = await theirs.metrics();
  assert.equal(await ours.metrics(), expected);
  assert.match(expected, /http_request_duration_seconds_bucket\{le="0.005",service="test",method="GET",route="\/a",status_code="200"\} 2/);
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
    Object.fromEntries((await counter.get()).values.map((v) => [`${v.labels.cache}/${v.labels.result}`, v.value]));
  assert.deepEqual(await values(), { 'user/hit': 5, 'user/miss': 1, 'token/hit': 0 });
  hit();
  assert.deepEqual(await values(), { 'user/hit': 6, 'user/miss': 1, 'token/hit': 0 });
  assert.match(await r.metrics(), /cache_lookups_total\{cache="user",result="hit",service="test"\} 6/);
});
