import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { securityHeaders } from '../index.mjs';

const HOST_CSP = {
  defaultSrc: ["'self'"],
  'script-src': ["'self'", 'http://localhost:8081'],
};

/** Serves `handler` behind the middleware and returns the response head of one GET. */
async function headOf(t, headers, handler, requestHeaders = {}) {
  const server = http.createServer((req, res) => headers.middleware(req, res, () => handler(req, res)));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const res = await fetch(`http://127.0.0.1:${server.address().port}/`, { headers: requestHeaders });
  await res.arrayBuffer();
  return res.headers;
}

test('the policy always closes plugins, base URLs and framing, and keeps the directives given', () => {
  const { headers } = securityHeaders({ csp: HOST_CSP });
  const csp = headers.get('Content-Security-Policy');
  assert.match(csp, /(^|;)default-src 'self'(;|$)/);
  assert.match(csp, /(^|;)script-src 'self' http:\/\/localhost:8081(;|$)/);
  assert.match(csp, /(^|;)object-src 'none'(;|$)/);
  assert.match(csp, /(^|;)base-uri 'none'(;|$)/);
  assert.match(csp, /(^|;)frame-ancestors 'none'(;|$)/);
  assert.equal(headers.get('X-Frame-Options'), 'DENY');
  assert.equal(headers.get('X-Content-Type-Options'), 'nosniff');
  assert.equal(headers.get('Referrer-Policy'), 'no-referrer');
  assert.equal(headers.has('Strict-Transport-Security'), false, 'HSTS is decided per request');
});

test('framing by given origins replaces the default, and X-Frame-Options follows it', () => {
  const self = securityHeaders({ csp: { defaultSrc: ["'none'"], frameAncestors: ["'self'"] } }).headers;
  assert.match(self.get('Content-Security-Policy'), /frame-ancestors 'self'/);
  assert.equal(self.get('X-Frame-Options'), 'SAMEORIGIN');
  const list = securityHeaders({
    csp: { defaultSrc: ["'none'"], frameAncestors: ["'self'", 'http://localhost:8080'] },
  }).headers;
  assert.match(list.get('Content-Security-Policy'), /frame-ancestors 'self' http:\/\/localhost:8080/);
  assert.equal(list.has('X-Frame-Options'), false, 'X-Frame-Options cannot name another origin');
});

test('helmet refuses a directive that would be silently wrong', () => {
  assert.throws(() => securityHeaders({ csp: { defaultSrc: ['self'] } }), /self/);
});

test('the Node middleware adds the headers to a plain response, over http without HSTS', async (t) => {
  const head = await headOf(t, securityHeaders({ csp: HOST_CSP, referrerPolicy: 'same-origin' }), (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  assert.match(head.get('content-security-policy'), /object-src 'none'/);
  assert.equal(head.get('x-content-type-options'), 'nosniff');
  assert.equal(head.get('referrer-policy'), 'same-origin');
  assert.equal(head.get('strict-transport-security'), null);
});

test("a handler's own headers win, whether set before or passed to writeHead", async (t) => {
  const headers = securityHeaders({ csp: HOST_CSP });
  const set = await headOf(t, headers, (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'nonce-abc'");
    res.end('page');
  });
  assert.equal(set.get('content-security-policy'), "default-src 'none'; style-src 'nonce-abc'");
  assert.equal(set.get('x-content-type-options'), 'nosniff', 'the others are still added');
  const inline = await headOf(t, headers, (_req, res) => {
    res.writeHead(200, { 'content-security-policy': 'sandbox', 'referrer-policy': 'origin' }).end('file');
  });
  assert.equal(inline.get('content-security-policy'), 'sandbox');
  assert.equal(inline.get('referrer-policy'), 'origin');
});

test('X-Forwarded-Proto https earns HSTS only from a trusted proxy', async (t) => {
  const reply = (_req, res) => res.end('ok');
  const untrusted = await headOf(t, securityHeaders({ csp: HOST_CSP }), reply, { 'x-forwarded-proto': 'https' });
  assert.equal(untrusted.get('strict-transport-security'), null);
  const trusted = securityHeaders({ csp: HOST_CSP, trustProxy: true });
  const viaProxy = await headOf(t, trusted, reply, { 'x-forwarded-proto': 'https' });
  assert.equal(viaProxy.get('strict-transport-security'), 'max-age=31536000; includeSubDomains');
  const plainViaProxy = await headOf(t, trusted, reply, { 'x-forwarded-proto': 'http' });
  assert.equal(plainViaProxy.get('strict-transport-security'), null);
  const byFunction = securityHeaders({ csp: HOST_CSP, trustProxy: (req) => req.socket.remoteAddress === '10.9.9.9' });
  assert.equal((await headOf(t, byFunction, reply, { 'x-forwarded-proto': 'https' })).get('strict-transport-security'), null);
});

test('a TLS socket is https whatever the headers say', () => {
  const { isHttps } = securityHeaders({ csp: HOST_CSP });
  assert.equal(isHttps({ socket: { encrypted: true }, headers: {} }), true);
  assert.equal(isHttps({ socket: {}, headers: { 'x-forwarded-proto': 'https' } }), false);
});

test('the Fastify hooks fill in what the route left unset and add HSTS on https', async () => {
  const { onSend, onSendHook } = securityHeaders({ csp: HOST_CSP });
  // Like Fastify's reply: names kept in lower case, looked up in any case.
  const replyWith = (initial) => {
    const set = new Map(Object.entries(initial));
    return {
      set,
      hasHeader: (name) => set.has(name.toLowerCase()),
      header: (name, value) => set.set(name.toLowerCase(), value),
    };
  };
  const route = replyWith({ 'content-security-policy': 'sandbox' });
  assert.equal(await onSend({ protocol: 'https' }, route, 'body'), 'body');
  assert.equal(route.set.get('content-security-policy'), 'sandbox');
  assert.equal(route.set.get('x-content-type-options'), 'nosniff');
  assert.equal(route.set.get('strict-transport-security'), 'max-age=31536000; includeSubDomains');
  const plain = replyWith({});
  await onSend({ protocol: 'http' }, plain, null);
  assert.match(plain.set.get('content-security-policy'), /frame-ancestors 'none'/);
  assert.equal(plain.set.has('strict-transport-security'), false);

  // The callback form: the same headers, the payload passed on unchanged.
  const viaCallback = replyWith({ 'x-frame-options': 'SAMEORIGIN' });
  const passed = await new Promise((resolve, reject) =>
    onSendHook({ protocol: 'https' }, viaCallback, 'payload', (error, payload) => (error ? reject(error) : resolve(payload))),
  );
  assert.equal(passed, 'payload');
  assert.equal(viaCallback.set.get('x-frame-options'), 'SAMEORIGIN');
  const viaPromise = replyWith({ 'x-frame-options': 'SAMEORIGIN' });
  await onSend({ protocol: 'https' }, viaPromise, 'payload');
  assert.deepEqual(new Map([...viaCallback.set].sort()), new Map([...viaPromise.set].sort()));
  assert.ok(viaCallback.set.size > 6, `headers: ${[...viaCallback.set.keys()]}`);
});
