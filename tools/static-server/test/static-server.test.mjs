import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { startStaticServer } from '../index.mjs';

async function makeDist() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'static-'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>shell</title>');
  await fs.writeFile(path.join(dir, 'main.0123456789ab.js'), 'console.log(1)');
  await fs.writeFile(path.join(dir, 'silent-check-sso.html'), '<!doctype html>');
  return dir;
}

test('the host serves the shell for client routes, config.json, and forbids framing', async (t) => {
  const upstream = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ proxied: req.url }));
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  t.after(() => upstream.close());
  const upstreamPort = upstream.address().port;

  const app = await startStaticServer({
    name: 'test-host',
    root: await makeDist(),
    port: 0,
    spa: true,
    logger: false,
    configJson: () => ({ productName: 'X' }),
    proxy: { prefix: '/api', upstream: `http://127.0.0.1:${upstreamPort}` },
    frameAncestorsSelf: ['/silent-check-sso.html'],
  });
  t.after(() => app.close());

  const shell = await app.inject('/simulation/3/4');
  assert.equal(shell.statusCode, 200);
  assert.match(shell.body, /<title>shell<\/title>/);
  assert.equal(shell.headers['content-security-policy'], "frame-ancestors 'none'");
  assert.equal(shell.headers['cache-control'], 'no-cache');

  const silent = await app.inject('/silent-check-sso.html');
  assert.equal(silent.headers['content-security-policy'], "frame-ancestors 'self'");

  const asset = await app.inject('/main.0123456789ab.js');
  assert.match(String(asset.headers['cache-control']), /immutable/);

  assert.equal((await app.inject('/missing.js')).statusCode, 404);
  assert.deepEqual((await app.inject('/config.json')).json(), { productName: 'X' });
  assert.deepEqual((await app.inject('/api/v1/user/whoami')).json(), { proxied: '/api/v1/user/whoami' });
});

test('a remote answers with CORS so any host origin may load it', async (t) => {
  const app = await startStaticServer({ name: 'test-remote', root: await makeDist(), port: 0, cors: true, logger: false });
  t.after(() => app.close());
  const res = await app.inject('/main.0123456789ab.js');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal((await app.inject('/healthz')).json().status, 'ok');
});

test('bundles are sent compressed to a browser that accepts it', async (t) => {
  const root = await makeDist();
  await fs.writeFile(path.join(root, 'big.0123456789ab.js'), 'console.log("x");\n'.repeat(2000));
  const app = await startStaticServer({ name: 'test-compress', root, port: 0, logger: false });
  t.after(() => app.close());
  const gz = await app.inject({ url: '/big.0123456789ab.js', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(gz.rawPayload.length < 2000, `compressed to ${gz.rawPayload.length} bytes`);
  const plain = await app.inject({ url: '/big.0123456789ab.js', headers: { 'accept-encoding': 'identity' } });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.length, 'console.log("x");\n'.length * 2000);
});
