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

test('health checks and files are logged at debug, pages and API calls at info, each with its request id passed to the API', async (t) => {
  const seen = [];
  const upstream = http.createServer((req, res) => {
    seen.push(req.headers['x-request-id']);
    res.end('{}');
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.after(() => upstream.close());
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'static-levels-'));
  await fs.writeFile(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
  await fs.mkdir(path.join(root, 'assets'));
  await fs.writeFile(path.join(root, 'assets', 'main.3f9a1c2b.js'), 'console.log(1)');
  const log = captureLog();
  const app = await startStaticServer({
    name: 'test-host',
    root,
    port: 0,
    spa: true,
    logger: { level: 'debug', stream: log.stream },
    closeOnSignals: false,
    proxy: { prefix: '/api', upstream: `http://127.0.0.1:${upstream.address().port}` },
  });
  t.after(() => app.close());

  const get = (url, headers = {}) => app.inject({ url, headers });
  assert.equal((await get('/healthz')).statusCode, 200);
  assert.equal((await get('/assets/main.3f9a1c2b.js')).statusCode, 200);
  assert.equal((await get('/assets/gone.js')).statusCode, 404);
  const page = await get('/reports');
  const api = await get('/api/v1/user/whoami', { 'x-request-id': 'browser-action-1' });
  const junk = await get('/api/v1/user/whoami', { 'x-request-id': 'evil id\nlevel=fatal' });

  const lines = log.lines().filter((line) => line.msg === 'request completed');
  const levelOf = (url) => lines.find((line) => line.req.url === url)?.level;
  assert.equal(levelOf('/healthz'), 20);
  assert.equal(levelOf('/assets/main.3f9a1c2b.js'), 20);
  assert.equal(levelOf('/assets/gone.js'), 30);
  assert.equal(levelOf('/reports'), 30);
  assert.equal(lines.length, 6, 'one line per request');

  // The page's line and answer share an id; the API call keeps the browser's and passes it on.
  const pageLine = lines.find((line) => line.req.url === '/reports');
  assert.equal(page.headers['x-request-id'], pageLine.reqId);
  assert.equal(api.headers['x-request-id'], 'browser-action-1');
  assert.ok(lines.some((line) => line.req.url === '/api/v1/user/whoami' && line.reqId === 'browser-action-1'));
  // A junk id is replaced by a fresh one, here and at the API.
  assert.match(junk.headers['x-request-id'], /^[0-9a-f-]{36}$/);
  assert.deepEqual(seen, ['browser-action-1', junk.headers['x-request-id']]);
  assert.ok(lines.every((line) => !line.reqId.includes('evil')));
});
