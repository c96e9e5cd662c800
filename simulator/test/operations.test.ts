import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLifecycle } from '@portal/service-kit';
import { buildSimulatorApp } from '../src/app';

const TOKEN = 'simulator-metrics-token-0123456789';

test('the simulator answers /metrics to its token only and /readyz until it drains', async () => {
  const lifecycle = createLifecycle();
  const app = await buildSimulatorApp({ apiUrl: 'http://127.0.0.1:1', logger: false, metricsToken: TOKEN, lifecycle });
  try {
    assert.equal((await app.inject('/metrics')).statusCode, 401);
    await app.inject('/healthz');
    const metrics = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.body, /http_request_duration_seconds_count\{service="simulator",method="GET",route="\/healthz",status_code="200"\} 1/);
    assert.equal((await app.inject('/readyz')).statusCode, 200);
    lifecycle.drain();
    assert.equal((await app.inject('/readyz')).statusCode, 503);
  } finally {
    await app.close();
  }
  const without = await buildSimulatorApp({ apiUrl: 'http://127.0.0.1:1', logger: false });
  try {
    assert.equal((await without.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 404);
  } finally {
    await without.close();
  }
});
