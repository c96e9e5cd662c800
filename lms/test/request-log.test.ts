import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureLog, secretRequest } from '@portal/service-kit/testing';
import { buildLmsApp } from '../src/app';

test("the platform's request log keeps paths but no code, state, id_token, token or Authorization value", async () => {
  const log = captureLog();
  const app = await buildLmsApp({
    publicUrl: 'http://lms.test',
    portalUrl: 'http://portal.test',
    toolKeys: async () => {
      throw new Error('unused');
    },
    logger: { level: 'info', stream: log.stream },
  });
  // The OIDC authorisation endpoint receives state and nonce; Brightspace's token endpoint a code.
  const request = secretRequest('/lti/authorize');
  await app.inject({ url: request.url, headers: request.headers });
  await app.close();
  const text = log.text();
  for (const value of request.values) assert.ok(!text.includes(value), `log shows ${value}`);
  assert.ok(
    log.lines().some((line) => (line.req as { url?: string } | undefined)?.url?.startsWith('/lti/authorize?page=2&token=[redacted]&code=[redacted]')),
    text,
  );
});
