import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { logOptions } from '@portal/service-kit';
import { captureLog, secretRequest } from '@portal/service-kit/testing';

import { ACTION_TOKEN_PATH } from '../src/routes/set-password';
import { OIDC, startTestProvider } from './helpers/oidc';

test("the provider's request log keeps paths but no code, state, token, set-password key, Authorization or Cookie value", async () => {
  const log = captureLog();
  const app = await startTestProvider({ logger: pino(logOptions({ level: 'info' }), log.stream) });
  try {
    const authorize = secretRequest(`/realms/main${OIDC}/auth`);
    await (await fetch(`${app.url}${authorize.url}`, { headers: authorize.headers, redirect: 'manual' })).arrayBuffer();
    await (await fetch(`${app.url}${ACTION_TOKEN_PATH}?key=action-key-9d8c7b&client_id=frontend`)).arrayBuffer();
  } finally {
    await app.close();
  }
  const text = log.text();
  for (const value of [...secretRequest().values, 'action-key-9d8c7b']) assert.ok(!text.includes(value), `log shows ${value}`);
  const urls = log.lines().flatMap((line) => (line.msg === 'request completed' ? [(line.req as { url: string }).url] : []));
  assert.ok(urls.some((url) => url.startsWith(`/realms/main${OIDC}/auth?page=2&token=[redacted]&code=[redacted]`)), urls.join('\n'));
  assert.ok(urls.some((url) => url === `${ACTION_TOKEN_PATH}?key=[redacted]&client_id=frontend`), urls.join('\n'));
});

test('a request line carries the caller’s X-Request-Id when it is a plain token, and the answer echoes it', async () => {
  const log = captureLog();
  const app = await startTestProvider({ logger: pino(logOptions({ level: 'debug' }), log.stream) });
  let echoed: string | null;
  let fresh: string | null;
  try {
    echoed = (await fetch(`${app.url}/realms/main${OIDC}/jwks`, { headers: { 'x-request-id': 'api-req-7' } })).headers.get('x-request-id');
    fresh = (await fetch(`${app.url}/healthz`, { headers: { 'x-request-id': 'no spaces allowed' } })).headers.get('x-request-id');
  } finally {
    await app.close();
  }
  assert.equal(echoed, 'api-req-7');
  assert.match(fresh ?? '', /^[0-9a-f-]{36}$/);
  const lines = log.lines().filter((line) => line.msg === 'request completed');
  const jwks = lines.find((line) => (line.req as { url: string }).url.endsWith('/jwks'));
  assert.equal(jwks?.reqId, 'api-req-7');
  assert.equal(jwks?.level, 30);
  const health = lines.find((line) => (line.req as { url: string }).url === '/healthz');
  assert.equal(health?.reqId, fresh);
  assert.equal(health?.level, 20, 'health checks at debug');
});
