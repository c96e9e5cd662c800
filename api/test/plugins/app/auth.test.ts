import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWTPayload,
} from 'jose';
import { INVALID_TOKEN, NOT_AUTHENTICATED, USER_NOT_REGISTERED } from '@portal/contract';
import { buildApp } from '../../../src/app';
import {
  AUTH_USER_REFRESH_SHARE,
  authUserTtlMs,
} from '../../../src/plugins/app/auth-user-cache';
import {
  account,
  authHeader,
  buildTestApp,
  createMigratedTestDatabase,
  hs256WithPublicKey,
  publicJwk,
  signIdentityAccessToken,
  signIdToken,
  signToken,
  TEST_CLIENT_ID,
  TEST_ISSUER,
  TEST_KID,
  testConfig,
  testPrivateKey,
  unsignedToken,
  type TestApp,
  type TestDatabase,
} from '../../helper';
import { createManualClock } from '../../manual-clock';

/** Shaped like an OIDC back-channel logout token (header typ), but with access-token claims. */
function signLogoutShapedToken(sub = account('learner').sub): Promise<string> {
  return new SignJWT({
    azp: TEST_CLIENT_ID,
    typ: 'Bearer',
    events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
  })
    .setProtectedHeader({ alg: 'RS256', kid: TEST_KID, typ: 'logout+jwt' })
    .setSubject(sub)
    .setIssuer(TEST_ISSUER)
    .setAudience(TEST_CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(testPrivateKey);
}

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

  test('a token whose audience names the client but has no azp answers 401 (an ID token shape)', async () => {
    const token = await signToken(learner.sub, {
      claims: { azp: undefined, aud: ['frontend', 'account'] },
    });
    const res = await whoami({ authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { detail: INVALID_TOKEN });
  });

  test('a token naming another client in azp answers 401 even when aud names ours', async () => {
    const token = await signToken(learner.sub, {
      claims: { azp: 'other-client', aud: 'frontend' },
    });
    assert.equal((await whoami({ authorization: `Bearer ${token}` })).statusCode, 401);
  });

  test('a token with an algorithm other than RS256 answers 401', async () => {
    const secret = new TextEncoder().encode('a-shared-secret-that-is-long-enough-for-hs256');
    const token = await new SignJWT({ azp: 'frontend', typ: 'Bearer' })
      .setProtectedHeader({ alg: 'HS256', kid: 'test-key' })
      .setSubject(learner.sub)
      .setIssuer(TEST_ISSUER)
      .setExpirationTime('5m')
      .sign(secret);
    const res = await whoami({ authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 401);
  });

  test('an access token as our identity provider issues it (typ at+jwt) is accepted', async () => {
    const token = await signIdentityAccessToken(learner.sub);
    const res = await whoami({ authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json<{ id: string }>().id, learner.sub);
  });

  test("our identity provider's ID token answers 401", async () => {
    const token = await signIdToken(learner.sub, 'identity');
    const res = await whoami({ authorization: `Bearer ${token}` });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { detail: INVALID_TOKEN });
  });

  test("Keycloak's ID token (typ ID, azp and aud = the client) answers 401", async () => {
    const token = await signIdToken(learner.sub, 'keycloak');
    assert.equal((await whoami({ authorization: `Bearer ${token}` })).statusCode, 401);
  });

  test('other token types of the issuer answer 401', async () => {
    // Keycloak's refresh and logout tokens say so in the claim; an RFC 9068 header wins nothing
    // when the claim says otherwise, and oidc-provider's logout tokens say so in the header.
    const tokens = [
      await signToken(learner.sub, { claims: { typ: 'Refresh' } }),
      await signToken(learner.sub, { claims: { typ: 'Logout' } }),
      await signIdentityAccessToken(learner.sub, { claims: { typ: 'ID' } }),
      await signLogoutShapedToken(learner.sub),
      await signToken(learner.sub, { claims: { typ: undefined } }),
    ];
    for (const token of tokens) {
      const res = await whoami({ authorization: `Bearer ${token}` });
      assert.equal(res.statusCode, 401, JSON.stringify(decodeProtectedHeader(token)));
    }
  });

  test('alg none answers 401', async () => {
    const res = await whoami({ authorization: `Bearer ${unsignedToken(learner.sub)}` });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { detail: INVALID_TOKEN });
  });

  test('HS256 signed with the public key (PEM or JWK) answers 401', async () => {
    for (const as of ['pem', 'jwk'] as const) {
      const res = await whoami({
        authorization: `Bearer ${await hs256WithPublicKey(learner.sub, as)}`,
      });
      assert.equal(res.statusCode, 401, as);
    }
  });

  test('a token without exp answers 401', async () => {
    const token = await new SignJWT({ azp: 'frontend', typ: 'Bearer' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setSubject(learner.sub)
      .setIssuer(TEST_ISSUER)
      .setIssuedAt()
      .sign(testPrivateKey);
    assert.equal((await whoami({ authorization: `Bearer ${token}` })).statusCode, 401);
  });

  test('a token without sub, or with a sub that is not a string, answers 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const sub of [undefined, 42, '', [learner.sub]]) {
      const token = await new SignJWT({ azp: 'frontend', typ: 'Bearer', sub } as JWTPayload)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(TEST_ISSUER)
        .setExpirationTime(now + 300)
        .sign(testPrivateKey);
      const res = await whoami({ authorization: `Bearer ${token}` });
      assert.equal(res.statusCode, 401, String(sub));
    }
  });

  test('a token without iss answers 401', async () => {
    const token = await new SignJWT({ azp: 'frontend', typ: 'Bearer' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setSubject(learner.sub)
      .setExpirationTime('5m')
      .sign(testPrivateKey);
    assert.equal((await whoami({ authorization: `Bearer ${token}` })).statusCode, 401);
  });

  test('a refused token stays refused, and an accepted one lets no other token through', async () => {
    const good = await signToken(learner.sub);
    assert.equal((await whoami({ authorization: `Bearer ${good}` })).statusCode, 200);
    const idToken = await signIdToken(learner.sub);
    for (let i = 0; i < 3; i++) {
      assert.equal((await whoami({ authorization: `Bearer ${idToken}` })).statusCode, 401);
    }
    assert.equal((await whoami({ authorization: `Bearer ${good}` })).statusCode, 200);
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

describe('authentication of a deleted user', () => {
  let t: TestApp;
  const clock = createManualClock();
  before(async () => {
    t = await buildTestApp({}, { clock });
  });
  after(() => t.close());

  test('a token accepted before its user was deleted is refused afterwards', async () => {
    const sub = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, role_id)
       values ($1, $2, 'Gone', 'Soon', (select id from roles where name = 'learner'))`,
      [sub, `${sub}@gone.test`],
    );
    // Valid past the users' time to live (5 min on PostgreSQL), so the 403 is the user's.
    const headers = await authHeader(sub, { expiresIn: authUserTtlMs(t.db.kind) / 1000 + 600 });
    const whoami = () => t.app.inject({ url: '/api/v1/user/whoami', headers });
    assert.equal((await whoami()).statusCode, 200);
    await t.db.query('delete from users where id = $1', [sub]);
    // The token itself stays in the accepted-token cache; the user must still be looked up. A
    // deletion straight in SQL shows once the users' own cache has let the user go: at the latest
    // at its time to live, sooner when a request past the refresh point reloaded it meanwhile. On
    // PostgreSQL the users' change notice (0030) may drop it sooner still, whenever it arrives, so
    // only PGlite pins the cached answer before the refresh point.
    const ttlMs = authUserTtlMs(t.db.kind);
    const refreshAt = ttlMs * AUTH_USER_REFRESH_SHARE;
    await clock.advance(refreshAt - 100);
    if (!process.env.TEST_DATABASE_URL) {
      assert.equal((await whoami()).statusCode, 200, 'still the cached user');
    }
    await clock.advance(ttlMs - refreshAt + 150);
    const res = await whoami();
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { detail: USER_NOT_REGISTERED });
  });
});

describe('ES256 tokens', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createMigratedTestDatabase();
  });
  after(() => database.dispose());

  test('are accepted from a key of the issuer, and ES384 is not', async () => {
    const ec = await generateKeyPair('ES256');
    const ec384 = await generateKeyPair('ES384');
    const jwks = createLocalJWKSet({
      keys: [
        publicJwk,
        { ...(await exportJWK(ec.publicKey)), kid: 'ec-key', alg: 'ES256', use: 'sig' },
        { ...(await exportJWK(ec384.publicKey)), kid: 'ec384-key', alg: 'ES384', use: 'sig' },
      ],
    });
    const app = await buildApp({
      config: testConfig(),
      db: database.db,
      jwks,
      logger: false,
    });
    try {
      const learner = account('learner');
      const sign = (alg: string, kid: string, key: Parameters<SignJWT['sign']>[0]) =>
        new SignJWT({ azp: TEST_CLIENT_ID, typ: 'Bearer' })
          .setProtectedHeader({ alg, kid, typ: 'JWT' })
          .setSubject(learner.sub)
          .setIssuer(TEST_ISSUER)
          .setExpirationTime('5m')
          .sign(key);
      const call = async (token: string) =>
        (
          await app.inject({
            url: '/api/v1/user/whoami',
            headers: { authorization: `Bearer ${token}` },
          })
        ).statusCode;
      assert.equal(await call(await sign('ES256', 'ec-key', ec.privateKey)), 200);
      assert.equal(await call(await sign('ES384', 'ec384-key', ec384.privateKey)), 401);
    } finally {
      await app.close();
    }
  });
});
