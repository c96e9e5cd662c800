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
  const urls = log.lines().flatMap((line) => (line.msg === 'request' ? [(line.req as { url: string }).url] : []));
  assert.ok(urls.some((url) => url.startsWith(`/realms/main${OIDC}/auth?page=2&token=[redacted]&code=[redacted]`)), urls.join('\n'));
  assert.ok(urls.some((url) => url === `${ACTION_TOKEN_PATH}?key=[redacted]&client_id=frontend`), urls.join('\n'));
});
