import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSimulatorApp } from '../src/app';

test('the simulator answers its health check and explains how it is opened', async () => {
  const app = buildSimulatorApp({ logger: false });
  assert.equal((await app.inject('/healthz')).json().status, 'ok');
  const page = await app.inject('/');
  assert.match(page.body, /Open this simulator from the portal/);
  assert.equal(page.headers['content-security-policy'], "frame-ancestors 'none'; default-src 'self'");
  await app.close();
});

test('a token in the link is acknowledged and never echoed into the page', async () => {
  const app = buildSimulatorApp({ logger: false });
  const page = await app.inject('/?token=<script>alert(1)</script>');
  assert.doesNotMatch(page.body, /<script>/);
  assert.match(page.body, /session link was received/);
  await app.close();
});
