import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { startStaticServer } from '../index.mjs';

const TOKEN = 'static-metrics-token-0123456789';

/** A raw request: `fetch` would resolve `..` itself before sending, which is not what an attacker does. */
function rawGet(port, rawPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function startHost(t, options = {}) {
  const seen = [];
  const upstream = http.createServer((req, res) => {
    seen.push(req.url);
    res.setHeader('content-type', 'text/plain');
    res.end(`upstream ${req.url}`);
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  t.after(() => upstream.close());
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'static-ops-'));
  await fs.writeFile(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
  const app = await startStaticServer({
    name: 'test-host',
    root,
    port: 0,
    host: '127.0.0.1',
    spa: true,
    logger: false,
    closeOnSignals: false,
    proxy: { prefix: '/api', upstream: `http://127.0.0.1:${upstream.address().port}` },
    ...options,
  });
  t.after(() => app.close());
  return { app, port: app.server.address().port, seen };
}

test('the /api proxy never lets a path climb out of /api (the upstream /metrics stays unreachable)', async (t) => {
  const { port, seen } = await startHost(t, { metricsToken: TOKEN });
  for (const rawPath of [
    '/api/../metrics',
    '/api/%2e%2e/metrics',
    '/api/.%2E/metrics',
    '/api/%2E./metrics',
    '/api/..%5Cmetrics',
    '/api/..\\metrics',
    '/api/v1/../../metrics',
    '/api/./../metrics',
  ]) {
    const res = await rawGet(port, rawPath, { authorization: `Bearer ${TOKEN}` });
    assert.equal(res.status, 400, `${rawPath}: ${res.status} ${res.body}`);
  }
  assert.deepEqual(seen, [], 'nothing reached the upstream');
  // Ordinary API paths still pass, untouched.
  const ok = await rawGet(port, '/api/v1/user/whoami?x=1');
  assert.equal(ok.status, 200);
  assert.deepEqual(seen, ['/api/v1/user/whoami?x=1']);
});

test("a static server's own /metrics: 404 without a token, 401 with a wrong one, 200 with the series", async (t) => {
  const without = await startHost(t);
  assert.equal((await rawGet(without.port, '/metrics', { authorization: `Bearer ${TOKEN}` })).status, 404);

  const { port } = await startHost(t, { metricsToken: TOKEN });
  assert.equal((await rawGet(port, '/metrics')).status, 401);
  assert.equal((await rawGet(port, '/metrics', { authorization: `Bearer x${TOKEN}` })).status, 401);
  await rawGet(port, '/index.html');
  const res = await rawGet(port, '/metrics', { authorization: `Bearer ${TOKEN}` });
  assert.equal(res.status, 200);
  assert.match(res.body, /http_request_duration_seconds_count\{[^}]*service="test-host"/);
  assert.match(res.body, /^process_resident_memory_bytes/m);
});

test('/readyz: ready until the server drains', async (t) => {
  const { app, port } = await startHost(t);
  assert.equal((await rawGet(port, '/readyz')).status, 200);
  app.lifecycle.drain();
  const draining = await rawGet(port, '/readyz');
  assert.equal(draining.status, 503);
  assert.deepEqual(JSON.parse(draining.body), { status: 'unavailable', reason: 'draining' });
});
