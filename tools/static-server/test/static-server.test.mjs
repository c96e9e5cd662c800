import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { inlineScriptHashes, startStaticServer } from '../index.mjs';

async function makeDist() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'static-'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>shell</title>');
  await fs.writeFile(path.join(dir, 'main.0123456789ab.js'), 'console.log(1)');
  await fs.writeFile(
    path.join(dir, 'silent-check-sso.html'),
    '<!doctype html><script src="/x.js"></script><script>\n  parent.postMessage(1);\n</script>',
  );
  return dir;
}

const HOST_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'http://localhost:8081'],
  connectSrc: ["'self'", 'http://localhost:8180'],
};

test('the host serves the shell for client routes, config.json and its assets under its CSP', async (t) => {
  const upstream = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    res.setHeader('referrer-policy', 'no-referrer');
    res.end(JSON.stringify({ proxied: req.url }));
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  t.after(() => upstream.close());
  const upstreamPort = upstream.address().port;
  const root = await makeDist();

  const app = await startStaticServer({
    name: 'test-host',
    root,
    port: 0,
    spa: true,
    logger: false,
    closeOnSignals: false,
    configJson: () => ({ productName: 'X' }),
    proxy: { prefix: '/api', upstream: `http://127.0.0.1:${upstreamPort}` },
    csp: HOST_CSP,
    cspByPath: {
      '/silent-check-sso.html': {
        frameAncestors: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(path.join(root, 'silent-check-sso.html'))],
      },
    },
  });
  t.after(() => app.close());

  const shell = await app.inject('/simulation/3/4');
  assert.equal(shell.statusCode, 200);
  assert.match(shell.body, /<title>shell<\/title>/);
  const csp = shell.headers['content-security-policy'];
  assert.match(csp, /(^|;)script-src 'self' http:\/\/localhost:8081(;|$)/);
  assert.match(csp, /(^|;)connect-src 'self' http:\/\/localhost:8180(;|$)/);
  assert.match(csp, /(^|;)object-src 'none'(;|$)/);
  assert.match(csp, /(^|;)base-uri 'none'(;|$)/);
  assert.match(csp, /(^|;)frame-ancestors 'none'(;|$)/);
  assert.equal(shell.headers['x-content-type-options'], 'nosniff');
  assert.equal(shell.headers['referrer-policy'], 'same-origin');
  assert.equal(shell.headers['cross-origin-resource-policy'], 'same-origin');
  assert.equal(shell.headers['strict-transport-security'], undefined);
  assert.equal(shell.headers['cache-control'], 'no-cache');

  const silent = await app.inject('/silent-check-sso.html');
  const silentCsp = silent.headers['content-security-policy'];
  assert.match(silentCsp, /frame-ancestors 'self'/);
  assert.match(silentCsp, /script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
  assert.match(
    silentCsp,
    /connect-src 'self' http:\/\/localhost:8180/,
    'the rest of the host policy stays',
  );

  const asset = await app.inject('/main.0123456789ab.js');
  assert.match(String(asset.headers['cache-control']), /immutable/);
  assert.match(String(asset.headers['content-security-policy']), /object-src 'none'/);

  const missing = await app.inject('/missing.js');
  assert.equal(missing.statusCode, 404);
  assert.match(String(missing.headers['content-security-policy']), /frame-ancestors 'none'/);
  const config = await app.inject('/config.json');
  assert.deepEqual(config.json(), { productName: 'X' });
  assert.equal(config.headers['x-content-type-options'], 'nosniff');

  const proxied = await app.inject('/api/v1/user/whoami');
  assert.deepEqual(proxied.json(), { proxied: '/api/v1/user/whoami' });
  assert.equal(
    proxied.headers['content-security-policy'],
    "default-src 'none'; frame-ancestors 'none'",
    "the API's own policy",
  );
  assert.equal(proxied.headers['referrer-policy'], 'no-referrer');
  assert.equal(proxied.headers['x-frame-options'], undefined, 'nothing of the host added');
});

test('an inline script hash is the CSP hash of exactly the script text', async () => {
  const root = await makeDist();
  const expected = createHash('sha256').update('\n  parent.postMessage(1);\n').digest('base64');
  assert.deepEqual(inlineScriptHashes(path.join(root, 'silent-check-sso.html')), [
    `'sha256-${expected}'`,
  ]);
});

test('HSTS is sent only when a trusted proxy reports https', async (t) => {
  const root = await makeDist();
  const direct = await startStaticServer({
    name: 'direct',
    root,
    port: 0,
    logger: false,
    closeOnSignals: false,
  });
  t.after(() => direct.close());
  const forged = await direct.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(forged.headers['strict-transport-security'], undefined);
  const behind = await startStaticServer({
    name: 'behind',
    root,
    port: 0,
    logger: false,
    closeOnSignals: false,
    trustProxy: ['loopback'],
  });
  t.after(() => behind.close());
  const https = await behind.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
  assert.match(String(https.headers['strict-transport-security']), /^max-age=\d+/);
  const http = await behind.inject({ url: '/', headers: { 'x-forwarded-proto': 'http' } });
  assert.equal(http.headers['strict-transport-security'], undefined);
});

test('a remote answers with CORS so any host origin may load it, under a strict CSP', async (t) => {
  const app = await startStaticServer({
    name: 'test-remote',
    root: await makeDist(),
    port: 0,
    cors: true,
    logger: false,
    closeOnSignals: false,
  });
  t.after(() => app.close());
  const res = await app.inject('/main.0123456789ab.js');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
  assert.equal(
    res.headers['content-security-policy'],
    "default-src 'self';script-src 'self';object-src 'none';base-uri 'none';frame-ancestors 'none'",
  );
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal((await app.inject('/healthz')).json().status, 'ok');
});

test('bundles are sent compressed to a browser that accepts it', async (t) => {
  const root = await makeDist();
  await fs.writeFile(path.join(root, 'big.0123456789ab.js'), 'console.log("x");\n'.repeat(2000));
  const app = await startStaticServer({
    name: 'test-compress',
    root,
    port: 0,
    logger: false,
    closeOnSignals: false,
  });
  t.after(() => app.close());
  const gz = await app.inject({
    url: '/big.0123456789ab.js',
    headers: { 'accept-encoding': 'gzip' },
  });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(gz.rawPayload.length < 2000, `compressed to ${gz.rawPayload.length} bytes`);
  const plain = await app.inject({
    url: '/big.0123456789ab.js',
    headers: { 'accept-encoding': 'identity' },
  });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.length, 'console.log("x");\n'.length * 2000);
});

test('the /api proxy tells the API who asked as this server sees it, never as the client claims', async (t) => {
  const upstream = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.headers));
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  t.after(() => upstream.close());
  const root = await makeDist();
  const host = (trustProxy) =>
    startStaticServer({
      name: 'test-forwarding',
      root,
      port: 0,
      logger: false,
      closeOnSignals: false,
      trustProxy,
      proxy: { prefix: '/api', upstream: `http://127.0.0.1:${upstream.address().port}` },
    });
  const forged = {
    'x-forwarded-for': '203.0.113.66, 198.51.100.7',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'portal.school.example',
    'x-forwarded-port': '443',
    forwarded: 'for=203.0.113.66;proto=https',
    'x-real-ip': '203.0.113.66',
    host: 'portal.test',
  };
  const seen = async (app, remoteAddress) => {
    const res = await app.inject({ url: '/api/v1/user/whoami', headers: forged, remoteAddress });
    const headers = res.json();
    return {
      for: headers['x-forwarded-for'],
      proto: headers['x-forwarded-proto'],
      host: headers['x-forwarded-host'],
      others: Object.keys(headers).filter((name) =>
        /^(forwarded|x-real-ip|x-forwarded-port)$/.test(name),
      ),
    };
  };

  const direct = await host(false);
  t.after(() => direct.close());
  assert.deepEqual(await seen(direct, '198.51.100.20'), {
    for: '198.51.100.20',
    proto: 'http',
    host: 'portal.test',
    others: [],
  });

  // Behind a load balancer the host trusts: the client it reports, then the balancer.
  const behind = await host(['10.0.0.5']);
  t.after(() => behind.close());
  const balanced = {
    for: '198.51.100.7, 10.0.0.5',
    proto: 'https',
    host: 'portal.school.example',
    others: [],
  };
  assert.deepEqual(await seen(behind, '10.0.0.5'), balanced);
  // The same headers from anyone else are that client's own say-so.
  assert.deepEqual(await seen(behind, '198.51.100.20'), {
    for: '198.51.100.20',
    proto: 'http',
    host: 'portal.test',
    others: [],
  });

  const oneHop = await host(1);
  t.after(() => oneHop.close());
  assert.deepEqual(await seen(oneHop, '10.0.0.5'), balanced);
});
