import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestPlatform, serveJwks, type TestPlatform } from '../../lti/platform-fixtures';
import { ltiLaunchRequest, registerPlatform } from '../../lti/lti-fixtures';

const SECRET = 'broker-secret-0123456789';
const CLIENT_ID = 'portal-identity';
const REDIRECT_URI = 'http://identity.test/realms/main/broker/lti/endpoint';
const ISSUER = 'http://localhost:8080/api/lti/broker';

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/**
 * The launch sign-in broker (issue #22 point 1) in-process: a real launch from a test platform
 * sets the binding cookie, the broker's authorization endpoint spends it for a code, the token
 * endpoint redeems the code for an ID token signed with the key its JWKS publishes.
 */
describe('LTI launch sign-in broker', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;

  before(async () => {
    t = await buildTestApp({
      ltiBroker: { clientId: CLIENT_ID, clientSecret: SECRET, alias: 'lti' },
    });
    platform = await createTestPlatform();
    jwks = await serveJwks(() => [platform.publicJwk]);
    // Not marked as verifying e-mail: the broker must not claim the launch's address.
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital', { verifiesEmail: false });
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  /** A launch of a new platform user; its launchId, user and binding cookie. */
  async function launch(sub = `broker-${randomBytes(6).toString('hex')}`) {
    const req = await ltiLaunchRequest(t.app, platform, {
      sub,
      email: `${sub}@platform.test`,
      claims: { given_name: 'Bea', family_name: 'Broker', name: 'Bea Broker' },
    });
    const res = await t.app.inject({ method: 'POST', ...req });
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(res.headers.location as string);
    const launchId = location.searchParams.get('launchId')!;
    assert.equal(location.searchParams.get('idp'), 'lti', 'the host is told the alias to hint');
    const cookie = res.cookies.find((c) => c.name === 'lti_broker_binding');
    assert.ok(cookie, 'the launch binds the browser');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.path, '/api/lti/broker');
    // The test portal is on loopback http, where browsers keep Secure cookies: None, as on https.
    assert.equal(cookie.sameSite, 'None', 'cross-site, for an embedded launch');
    assert.equal(cookie.secure, true, 'None needs Secure');
    assert.ok(Number(cookie.maxAge) > 0 && Number(cookie.maxAge) <= 300, 'short-lived');
    const stored = await t.db.query<{ token_hash: string }>(
      'select token_hash from lti_broker_bindings where launch_id = $1',
      [launchId],
    );
    assert.equal(
      stored.rows[0]!.token_hash,
      createHash('sha256').update(cookie.value).digest('hex'),
      'only a hash is stored',
    );
    const user = await t.db.query<{ user_id: string }>(
      'select user_id::text from lti_launches where id = $1',
      [launchId],
    );
    return { launchId, userId: user.rows[0]!.user_id, cookie: cookie.value };
  }

  async function authorize(
    cookie: string | undefined,
    params: Record<string, string>,
  ): Promise<URL> {
    const query = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid profile email',
      state: 'st-1',
      nonce: 'n-1',
      ...params,
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/lti/broker/auth?${query}`,
      ...(cookie ? { cookies: { lti_broker_binding: cookie } } : {}),
    });
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(res.headers.location as string);
    assert.equal(
      `${location.origin}${location.pathname}`,
      REDIRECT_URI,
      'always back to the client',
    );
    assert.equal(location.searchParams.get('state'), 'st-1');
    return location;
  }

  const redeem = (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const body = form({
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      client_secret: SECRET,
      ...fields,
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/lti/broker/token',
      ...body,
      headers: { ...body.headers, ...headers },
    });
  };

  test('discovery names the endpoints under the portal; the JWKS has the public key only', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/lti/broker/.well-known/openid-configuration',
    });
    assert.equal(res.statusCode, 200);
    const doc = res.json<Record<string, unknown>>();
    assert.equal(doc.issuer, ISSUER);
    assert.equal(doc.authorization_endpoint, `${ISSUER}/auth`);
    assert.equal(doc.token_endpoint, `${ISSUER}/token`);
    assert.equal(doc.jwks_uri, `${ISSUER}/certs`);
    assert.equal(doc.userinfo_endpoint, `${ISSUER}/userinfo`);
    const keys = (await t.app.inject({ method: 'GET', url: '/api/lti/broker/certs' })).json<{
      keys: Record<string, unknown>[];
    }>();
    assert.equal(keys.keys.length, 1);
    assert.ok(!('d' in keys.keys[0]!), 'no private part');
  });

  test('a launch signs its browser in: code → ID token (sub = portal user) → userinfo', async () => {
    const { launchId, userId, cookie } = await launch();
    const { verifier, challenge } = pkce();
    const answer = await authorize(cookie, {
      login_hint: launchId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    assert.equal(
      answer.searchParams.get('error'),
      null,
      answer.searchParams.get('error_description') ?? '',
    );
    assert.equal(answer.searchParams.get('iss'), ISSUER);
    const code = answer.searchParams.get('code')!;

    const res = await redeem({ code, code_verifier: verifier });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const tokens = res.json<{ id_token: string; access_token: string; token_type: string }>();
    assert.equal(tokens.token_type, 'Bearer');
    const certs = (await t.app.inject({ method: 'GET', url: '/api/lti/broker/certs' })).json<{
      keys: [];
    }>();
    const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet(certs), {
      issuer: ISSUER,
      audience: CLIENT_ID,
    });
    assert.equal(payload.sub, userId);
    assert.equal(payload.nonce, 'n-1');
    assert.equal(payload.given_name, 'Bea');
    assert.equal(payload.family_name, 'Broker');
    assert.equal(payload.name, 'Bea Broker');
    assert.equal(payload.email, undefined, 'no e-mail from a platform that does not verify them');
    assert.equal(payload.preferred_username, userId);

    const info = await t.app.inject({
      method: 'GET',
      url: '/api/lti/broker/userinfo',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(info.statusCode, 200, info.body);
    assert.equal(info.json<{ sub: string }>().sub, userId);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/lti/broker/userinfo',
      headers: { authorization: `Bearer ${tokens.id_token}` },
    });
    assert.equal(forged.statusCode, 401, 'an ID token is no access token');

    // The code is single use.
    const again = await redeem({ code, code_verifier: verifier });
    assert.equal(again.statusCode, 400);
    assert.equal(again.json<{ error: string }>().error, 'invalid_grant');
  });

  test('the e-mail is claimed when the platform verifies e-mail addresses', async () => {
    await t.db.query('update lti_platforms set verifies_email = true where issuer = $1', [
      platform.issuer,
    ]);
    try {
      const { launchId, cookie } = await launch('broker-verified');
      const code = (await authorize(cookie, { login_hint: launchId })).searchParams.get('code')!;
      const res = await redeem({ code });
      assert.equal(res.statusCode, 200, res.body);
      const claims = JSON.parse(
        Buffer.from(
          res.json<{ id_token: string }>().id_token.split('.')[1]!,
          'base64url',
        ).toString(),
      );
      assert.equal(claims.email, 'broker-verified@platform.test');
      assert.equal(claims.email_verified, true);
    } finally {
      await t.db.query('update lti_platforms set verifies_email = false where issuer = $1', [
        platform.issuer,
      ]);
    }
  });

  test('the binding: no cookie, used, expired and another launch are refused back to the client', async () => {
    const { launchId, cookie } = await launch();
    const none = await authorize(undefined, { login_hint: launchId });
    assert.equal(none.searchParams.get('error'), 'access_denied');
    assert.equal(none.searchParams.get('code'), null);

    // Another browser's launch: this cookie binds a different launch.
    const other = await launch();
    const foreign = await authorize(cookie, { login_hint: other.launchId });
    assert.equal(foreign.searchParams.get('error'), 'access_denied');
    assert.match(foreign.searchParams.get('error_description')!, /another launch/);

    const ok = await authorize(cookie, { login_hint: launchId });
    assert.ok(ok.searchParams.get('code'), 'the cookie still works for its own launch');
    const used = await authorize(cookie, { login_hint: launchId });
    assert.equal(used.searchParams.get('error'), 'access_denied');
    assert.match(used.searchParams.get('error_description')!, /already used/);

    await t.db.query(
      `update lti_broker_bindings set expires_at = now() - interval '1 second' where launch_id = $1`,
      [other.launchId],
    );
    const expired = await authorize(other.cookie, { login_hint: other.launchId });
    assert.equal(expired.searchParams.get('error'), 'access_denied');
    assert.match(expired.searchParams.get('error_description')!, /too old/);
  });

  test('unknown client or redirect URI: a 400, never a redirect', async () => {
    const { launchId, cookie } = await launch();
    for (const params of [{ client_id: 'other' }, { redirect_uri: 'https://evil.test/cb' }]) {
      const query = new URLSearchParams({
        client_id: CLIENT_ID,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid',
        login_hint: launchId,
        ...params,
      });
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/lti/broker/auth?${query}`,
        cookies: { lti_broker_binding: cookie },
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.headers.location, undefined);
      assert.equal(res.json<{ error: string }>().error, 'invalid_request');
    }
    // The binding was not spent by those.
    assert.ok((await authorize(cookie, { login_hint: launchId })).searchParams.get('code'));
  });

  test('token: wrong secret, wrong PKCE verifier, expired code, Basic authentication', async () => {
    const first = await launch();
    const { verifier, challenge } = pkce();
    const code = (
      await authorize(first.cookie, {
        login_hint: first.launchId,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })
    ).searchParams.get('code')!;
    const wrongSecret = await redeem({
      code,
      code_verifier: verifier,
      client_secret: 'not-the-secret-0000',
    });
    assert.equal(wrongSecret.statusCode, 401);
    assert.equal(wrongSecret.json<{ error: string }>().error, 'invalid_client');
    const wrongVerifier = await redeem({ code, code_verifier: pkce().verifier });
    assert.equal(wrongVerifier.statusCode, 400);
    assert.equal(wrongVerifier.json<{ error: string }>().error, 'invalid_grant');
    // A refused request changes nothing: the right verifier still redeems it, once.
    assert.equal((await redeem({ code, code_verifier: verifier })).statusCode, 200);
    assert.equal((await redeem({ code, code_verifier: verifier })).statusCode, 400);

    const second = await launch();
    const late = (await authorize(second.cookie, { login_hint: second.launchId })).searchParams.get(
      'code',
    )!;
    await t.db.query(
      `update lti_broker_codes set expires_at = now() - interval '1 second' where launch_id = $1`,
      [second.launchId],
    );
    assert.equal((await redeem({ code: late })).json<{ error: string }>().error, 'invalid_grant');

    const third = await launch();
    const basicCode = (
      await authorize(third.cookie, { login_hint: third.launchId })
    ).searchParams.get('code')!;
    const basic = Buffer.from(`${CLIENT_ID}:${encodeURIComponent(SECRET)}`).toString('base64');
    const body = form({
      grant_type: 'authorization_code',
      code: basicCode,
      redirect_uri: REDIRECT_URI,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lti/broker/token',
      ...body,
      headers: { ...body.headers, authorization: `Basic ${basic}` },
    });
    assert.equal(res.statusCode, 200, res.body);
  });

  test('members of a deactivated organisation cannot sign in by a launch (authorization and token)', async () => {
    const { launchId, userId, cookie } = await launch();
    const code = (await authorize(cookie, { login_hint: launchId })).searchParams.get('code')!;
    const org = await t.db.query<{ organisation_id: number }>(
      'select organisation_id from users where id = $1',
      [userId],
    );
    await t.db.query('update organisations set is_active = false where id = $1', [
      org.rows[0]!.organisation_id,
    ]);
    try {
      const res = await redeem({ code });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json<{ error: string }>().error, 'invalid_grant');
    } finally {
      await t.db.query('update organisations set is_active = true where id = $1', [
        org.rows[0]!.organisation_id,
      ]);
    }
    const next = await launch();
    await t.db.query('update organisations set is_active = false where id = $1', [
      org.rows[0]!.organisation_id,
    ]);
    try {
      const refused = await authorize(next.cookie, { login_hint: next.launchId });
      assert.equal(refused.searchParams.get('error'), 'access_denied');
      assert.match(refused.searchParams.get('error_description')!, /deactivated/);
    } finally {
      await t.db.query('update organisations set is_active = true where id = $1', [
        org.rows[0]!.organisation_id,
      ]);
    }
  });
});

describe('LTI launch sign-in broker, not configured', () => {
  test('the broker answers 404', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/lti/broker/.well-known/openid-configuration',
      });
      assert.equal(res.statusCode, 404);
    } finally {
      await t.close();
    }
  });
});
