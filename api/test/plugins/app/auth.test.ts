import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { INVALID_TOKEN, NOT_AUTHENTICATED, USER_NOT_REGISTERED } from '@portal/contract';
import {
  account,
  authHeader,
  buildTestApp,
  signToken,
  TEST_ISSUER,
  type TestApp,
} from '../../helper';

describe('authentication', () => {
  let t: TestApp;
  const learner = account('learner');
  const whoami = (headers: Record<string, string> = {}) =>
    t.app.inject({ url: '/api/v1/user/whoami', headers });

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('a request without a token answers 401 with a Bearer challenge', async () => {
    const res = await whoami();
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { detail: NOT_AUTHENTICATED });
    assert.equal(res.headers['www-authenticate'], 'Bearer');
  });

  test('a header that is not a bearer token answers 401', async () => {
    const res = await whoami({ authorization: 'Basic dXNlcjpwYXNz' });
    assert.equal(res.statusCode, 401);
  });

  test('a malformed token answers 401', async () => {
    const res = await whoami({ authorization: 'Bearer not.a.jwt' });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { detail: INVALID_TOKEN });
  });

  test('a token signed by another key answers 401', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const res = await whoami(await authHeader(learner.sub, { key: privateKey }));
    assert.equal(res.statusCode, 401);
  });

  test('an expired token answers 401', async () => {
    const res = await whoami(await authHeader(learner.sub, { expiresIn: -60 }));
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { detail: INVALID_TOKEN });
  });

  test('a token from another issuer answers 401', async () => {
    const res = await whoami(
      await authHeader(learner.sub, { issuer: 'http://evil.test/realms/main' }),
    );
    assert.equal(res.statusCode, 401);
  });

  test('a token issued to another client answers 401', async () => {
    const res = await whoami(await authHeader(learner.sub, { claims: { azp: 'other-client' } }));
    assert.equal(res.statusCode, 401);
  });

  test('a token whose audience names the client is accepted without azp', async () => {
    const token = await signToken(learner.sub, {
      claims: { azp: undefined, aud: ['frontend', 'account'] },
    });
    const res = await whoami({ authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 200);
  });

  test('a token with an algorithm other than RS256 answers 401', async () => {
    const secret = new TextEncoder().encode('a-shared-secret-that-is-long-enough-for-hs256');
    const token = await new SignJWT({ azp: 'frontend' })
      .setProtectedHeader({ alg: 'HS256', kid: 'test-key' })
      .setSubject(learner.sub)
      .setIssuer(TEST_ISSUER)
      .setExpirationTime('5m')
      .sign(secret);
    const res = await whoami({ authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 401);
  });

  test('a valid token whose subject is not a user of ours answers 403', async () => {
    const res = await whoami(await authHeader(randomUUID()));
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: USER_NOT_REGISTERED });
  });

  test('a valid token whose subject is not even a UUID answers 403, not 500', async () => {
    const res = await whoami(await authHeader('admin'));
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: USER_NOT_REGISTERED });
  });

  test('permissions come from our database, not from the token', async () => {
    const res = await whoami(
      await authHeader(learner.sub, {
        claims: { permissions: ['global.create_org'], realm_access: { roles: ['sys admin'] } },
      }),
    );
    assert.equal(res.statusCode, 200);
    assert.ok(!res.json<{ permissions: string[] }>().permissions.includes('global.create_org'));
  });
});
