import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { logOptions, runWithRequestId } from '@portal/service-kit';
import { captureLog } from '@portal/service-kit/testing';
import { startIdentityApp } from '@portal/identity/src/app';
import { createKeycloakIdentityAdmin } from '../../src/identity/identity-admin';

test('a call to the identity provider made for an API request carries its id, which the provider logs', async () => {
  const secret = randomBytes(32).toString('hex');
  const log = captureLog();
  const identity = await startIdentityApp({
    dataDir: null,
    serviceClientSecret: secret,
    devMode: true,
    seedDemo: false,
    logger: pino(logOptions({ level: 'info' }), log.stream),
  });
  try {
    const admin = createKeycloakIdentityAdmin(
      { baseUrl: identity.url, realm: 'main', clientId: 'portal-api', clientSecret: secret },
      { invitationClientId: 'frontend', portalUrl: 'http://localhost:8080' },
    );
    assert.equal(await runWithRequestId('api-req-9', () => admin.findByEmail('nobody@example.test')), null);
    // Outside a request (the outbox worker), the provider gives the call an id of its own.
    assert.equal(await admin.findByEmail('somebody@example.test'), null);
  } finally {
    await identity.close();
  }
  const userSearches = log
    .lines()
    .filter((line) => line.msg === 'request completed' && (line.req as { url: string }).url.includes('/users?'));
  assert.equal(userSearches.length, 2, JSON.stringify(userSearches));
  assert.equal(userSearches[0]!.reqId, 'api-req-9');
  assert.notEqual(userSearches[1]!.reqId, 'api-req-9');
});
