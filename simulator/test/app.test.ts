import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureLog, secretRequest } from '@portal/service-kit/testing';
import { buildSimulatorApp } from '../src/app';
import { parseTube } from '../src/web/launch-routes';

// Nothing listens on port 9 of the loopback: calls to the API fail at once.
const UNREACHABLE_API = 'http://127.0.0.1:9';
const build = () => buildSimulatorApp({ apiUrl: UNREACHABLE_API, logger: false });

test('the simulator answers its health check and explains how it is opened', async () => {
  const app = await build();
  assert.equal((await app.inject('/healthz')).json().status, 'ok');
  const page = await app.inject('/');
  assert.match(page.body, /Open this simulator from the portal/);
  assert.match(page.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
  await app.close();
});

test('every answer forbids script, plugins and framing, and the launch page may only show its own styles and images', async () => {
  const app = await build();
  for (const url of ['/', '/healthz', '/launch?token=some-token', '/launch', '/assets/simulator.css', '/nowhere']) {
    const response = await app.inject(url);
    const csp = response.headers['content-security-policy'] as string;
    assert.equal(
      csp,
      "default-src 'none';img-src 'self';style-src 'self';form-action 'self';frame-ancestors 'none';object-src 'none';base-uri 'none'",
      url,
    );
    assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
    assert.equal(response.headers['referrer-policy'], 'no-referrer', url);
    assert.equal(response.headers['strict-transport-security'], undefined, `${url}: no HSTS over http`);
  }
  await app.close();
});

test('an old-style link with the token at the root goes to the launch page', async () => {
  const app = await build();
  const response = await app.inject('/?token=abc%20def');
  assert.equal(response.statusCode, 302);
  assert.equal(response.headers.location, '/launch?token=abc%20def');
  await app.close();
});

test('the launch page without a token is a 400 page that says where to start', async () => {
  const app = await build();
  for (const url of ['/launch', '/launch?token=']) {
    const response = await app.inject(url);
    assert.equal(response.statusCode, 400);
    assert.match(response.body, /session link from the portal/);
  }
  const post = await app.inject({ method: 'POST', url: '/launch/capture', payload: 'kV=60', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(post.statusCode, 400);
  await app.close();
});

test('an API that cannot be reached shows a retry message, not a crash', async () => {
  const app = await build();
  const response = await app.inject('/launch?token=some-token');
  assert.equal(response.statusCode, 502);
  assert.match(response.body, /cannot reach the portal/);
  assert.equal(response.headers['referrer-policy'], 'no-referrer');
  assert.equal(response.headers['cache-control'], 'no-store');
  await app.close();
});

test('the stylesheet is served from our origin and unknown images are 404', async () => {
  const app = await build();
  const css = await app.inject('/assets/simulator.css');
  assert.equal(css.statusCode, 200);
  assert.match(css.headers['content-type'] as string, /text\/css/);
  assert.equal((await app.inject('/launch/images/not-an-image.png')).statusCode, 404);
  await app.close();
});

test('the request log keeps the launch path but not the session token or any other secret', async () => {
  const log = captureLog();
  const app = await buildSimulatorApp({ apiUrl: UNREACHABLE_API, logger: { level: 'info', stream: log.stream } });
  const request = secretRequest('/launch');
  await app.inject({ url: request.url, headers: request.headers });
  await app.close();
  const text = log.text();
  for (const value of request.values) assert.ok(!text.includes(value), `log shows ${value}`);
  assert.ok(log.lines().some((line) => (line.req as { url?: string } | undefined)?.url?.startsWith('/launch?page=2&token=[redacted]')), text);
});

test('tube settings from the form are checked against the contract limits', () => {
  assert.deepEqual(parseTube({ kV: '65', mAs: '2,5', sidCm: '110' }), { tube: { kV: 65, mAs: 2.5, sidCm: 110 } });
  const refused = parseTube({ kV: '200', mAs: '', sidCm: 'far' });
  assert.ok('errors' in refused);
  assert.deepEqual(refused.errors.kV, ['Enter a value from 40 to 150.']);
  assert.deepEqual(refused.errors.mAs, ['Enter the tube current-time product as a number.']);
  assert.deepEqual(refused.errors.sidCm, ['Enter the source-to-image distance as a number.']);
});
