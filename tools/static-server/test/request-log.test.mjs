import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { captureLog, secretRequest } from '@portal/service-kit/testing';
import { startStaticServer } from '../index.mjs';

test("the host's request log keeps paths but no token, code, signature, Authorization or Cookie value", async (t) => {
  const upstream = http.createServer((req, res) => res.end('{}'));
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.after(() => upstream.close());
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'static-log-'));
  await fs.writeFile(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
  const log = captureLog();
  const app = await startStaticServer({
    name: 'test-host',
    root,
    port: 0,
    spa: true,
    logger: { level: 'info', stream: log.stream },
    closeOnSignals: false,
    proxy: { prefix: '/api', upstream: `http://127.0.0.1:${upstream.address().port}` },
  });
  t.after(() => app.close());

  // A page of the app (Brightspace returns with code and state), and a proxied API call.
  const page = secretRequest('/brightspace/callback');
  const api = secretRequest('/api/v1/simulator/session/');
  for (const request of [page, api]) {
    assert.equal((await app.inject({ url: request.url, headers: request.headers })).statusCode, 200);
  }

  const text = log.text();
  for (const value of [...page.values, ...api.values]) assert.ok(!text.includes(value), `log shows ${value}`);
  const urls = log.lines().flatMap((line) => (line.req ? [line.req.url] : []));
  assert.ok(urls.some((url) => url.startsWith('/brightspace/callback?page=2&token=[redacted]')), urls.join('\n'));
  assert.ok(urls.some((url) => url.startsWith('/api/v1/simulator/session/?page=2&token=[redacted]')), urls.join('\n'));
  assert.ok(log.lines().some((line) => line.req?.headers?.authorization === '[redacted]'));
});
