import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LtiRegistrationToken, LtiToolConfiguration } from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../helper';
import { issuerMatches, isLoopbackHost, platformUrl } from '../../src/lti/dynamic-registration';
import { pageLanguage } from '../../src/routes/api/lti/register/index';
import { serveRegistrationPlatform, type RegistrationPlatform } from './registration-platform';

const sysAdmin = account('sys admin');
const orgAdmin = account('org admin', 'Demo Hospital');
const TOOL_CLAIM = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

async function organisationId(t: TestApp, name: string): Promise<number> {
  return (await t.db.query<{ id: number }>('select id from organisations where name = $1', [name]))
    .rows[0]!.id;
}

async function newToken(t: TestApp, organisation: number, sub = sysAdmin.sub) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/organisation/${organisation}/lti/registration-token`,
    headers: { ...(await authHeader(sub)), ...xsrfHeaders() },
  });
  assert.equal(res.statusCode, 201, res.body);
  const answer = res.json<LtiRegistrationToken>();
  return { ...answer, token: new URL(answer.url).searchParams.get('portal_token')! };
}

async function platformsOf(t: TestApp, issuer: string) {
  return (
    await t.db.query<{
      client_id: string;
      auth_login_url: string;
      access_token_url: string;
      jwks_url: string;
      deployment_ids: string[];
      organisation_id: number;
    }>(
      `select client_id, auth_login_url, access_token_url, jwks_url, deployment_ids, organisation_id
         from lti_platforms where issuer = $1 order by id`,
      [issuer],
    )
  ).rows;
}

describe('LTI Dynamic Registration (GET /api/lti/register)', () => {
  let t: TestApp;
  let lms: RegistrationPlatform;
  let demo: number;
  before(async () => {
    t = await buildTestApp();
    lms = await serveRegistrationPlatform();
    demo = await organisationId(t, 'Demo Hospital');
  });
  after(async () => {
    await lms.close();
    await t.close();
  });
  beforeEach(() => lms.reset());

  const register = (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/lti/register?${query}`, headers });

  /** The page refuses with `code`, and neither a platform nor an audit entry nor a used token is left. */
  async function refused(query: string, code: string, status = 400) {
    const platforms = await t.db.query('select count(*)::int as n from lti_platforms');
    const audits = await t.db.query('select count(*)::int as n from audit_log');
    const used = await t.db.query(
      'select count(*)::int as n from lti_registration_tokens where used_at is not null',
    );
    const res = await register(query);
    assert.equal(res.statusCode, status, res.body);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.ok(res.body.includes(`<code>${code}</code>`), `${code} in ${res.body}`);
    assert.ok(!res.body.includes('org.imsglobal.lti.close'), 'no close message on a refusal');
    assert.deepEqual(
      (await t.db.query('select count(*)::int as n from lti_platforms')).rows,
      platforms.rows,
    );
    assert.deepEqual(
      (await t.db.query('select count(*)::int as n from audit_log')).rows,
      audits.rows,
    );
    assert.deepEqual(
      (
        await t.db.query(
          'select count(*)::int as n from lti_registration_tokens where used_at is not null',
        )
      ).rows,
      used.rows,
    );
    return res;
  }

  test('a global administrator’s URL registers the platform for the organisation', async () => {
    const made = await newToken(t, demo);
    const url = new URL(made.url);
    assert.equal(`${url.origin}${url.pathname}`, 'http://localhost:8080/api/lti/register');
    assert.match(made.token, /^[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(made.expiresAt) - Date.now()) / 3_600_000;
    assert.ok(hours > 23.9 && hours <= 24, `expires in ${hours} h`);
    const stored = await t.db.query<{ token_hash: string }>(
      'select token_hash from lti_registration_tokens',
    );
    assert.ok(
      stored.rows.every((r) => r.token_hash !== made.token && /^[0-9a-f]{64}$/.test(r.token_hash)),
      'only the hash is stored',
    );

    const res = await register(lms.registerQuery(made.token));
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.ok(res.body.includes('Registration complete — you can close this window.'));
    assert.ok(res.body.includes("postMessage({ subject: 'org.imsglobal.lti.close' }, '*')"));
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/);
    assert.equal(res.headers['x-frame-options'], undefined, 'the platform may frame the page');

    // What the tool posted, with the platform's registration token.
    assert.equal(lms.registrations.length, 1);
    const posted = lms.registrations[0]!;
    assert.equal(posted.authorization, `Bearer ${lms.registrationToken}`);
    const body = posted.body;
    assert.equal(body.application_type, 'web');
    assert.deepEqual(body.response_types, ['id_token']);
    assert.deepEqual(body.grant_types, ['implicit', 'client_credentials']);
    assert.equal(body.initiate_login_uri, 'http://localhost:8080/api/lti/login');
    assert.deepEqual(body.redirect_uris, ['http://localhost:8080/api/lti/launch']);
    assert.equal(body.jwks_uri, 'http://localhost:8080/api/lti/jwks');
    assert.equal(body.token_endpoint_auth_method, 'private_key_jwt');
    assert.equal(typeof body.client_name, 'string');
    assert.deepEqual(String(body.scope).split(' ').sort(), [
      'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
      'https://purl.imsglobal.org/spec/lti-ags/scope/score',
      'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
    ]);
    const tool = body[TOOL_CLAIM] as Record<string, unknown>;
    assert.equal(tool.domain, 'localhost:8080');
    assert.equal(tool.target_link_uri, 'http://localhost:8080/api/lti/launch');
    assert.deepEqual(tool.custom_parameters, {});
    assert.ok(Array.isArray(tool.claims) && tool.claims.includes('sub'));
    assert.deepEqual(
      (tool.messages as Array<{ type: string }>).map((m) => m.type),
      ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'],
    );

    const [platform, ...more] = await platformsOf(t, lms.issuer);
    assert.equal(more.length, 0);
    assert.deepEqual(
      { ...platform, client_id: platform!.client_id.startsWith('dr-client-') },
      {
        client_id: true,
        auth_login_url: `${lms.issuer}/auth`,
        access_token_url: `${lms.issuer}/token`,
        jwks_url: `${lms.issuer}/jwks`,
        deployment_ids: ['deployment-dr-1'],
        organisation_id: demo,
      },
    );
    const audit = await t.db.query<{ action: string; actor_id: string; organisation_id: number }>(
      `select action, actor_id::text, organisation_id from audit_log
        where entity_type = 'lti_platform' order by id desc limit 1`,
    );
    assert.deepEqual(audit.rows, [
      { action: 'create', actor_id: sysAdmin.sub, organisation_id: demo },
    ]);

    // The URL is single use.
    await refused(lms.registerQuery(made.token), 'INVALID_PORTAL_TOKEN');
    assert.equal(lms.registrations.length, 1, 'the platform was not called again');
  });

  test('a re-registration with the same client id updates the row and adds the deployment', async () => {
    const first = await newToken(t, demo);
    lms.nextClientId = () => 'dr-fixed-client';
    assert.equal((await register(lms.registerQuery(first.token))).statusCode, 200);
    const verifies = () =>
      t.db.query<{ verifies_email: boolean }>(
        `select verifies_email from lti_platforms where issuer = $1 and client_id = 'dr-fixed-client'`,
        [lms.issuer],
      );
    assert.deepEqual((await verifies()).rows, [{ verifies_email: false }], 'registered unmarked');
    // An administrator marks it; new endpoints from a re-registration are no platform they vouched for.
    await t.db.query(
      `update lti_platforms set verifies_email = true where issuer = $1 and client_id = 'dr-fixed-client'`,
      [lms.issuer],
    );
    lms.deploymentId = 'deployment-dr-2';
    lms.configuration.jwks_uri = `${lms.issuer}/jwks-2`;
    const second = await newToken(t, demo);
    assert.equal((await register(lms.registerQuery(second.token))).statusCode, 200);
    const rows = (await platformsOf(t, lms.issuer)).filter(
      (r) => r.client_id === 'dr-fixed-client',
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.jwks_url, `${lms.issuer}/jwks-2`);
    assert.deepEqual([...rows[0]!.deployment_ids].sort(), ['deployment-dr-1', 'deployment-dr-2']);
    assert.deepEqual((await verifies()).rows, [{ verifies_email: false }], 'the mark is reset');

    // The same issuer + client id for another organisation is refused; the row stays Demo Hospital's.
    const other = await newToken(t, await organisationId(t, 'Other College'));
    await refused(lms.registerQuery(other.token), 'INVALID_REGISTRATION');
    assert.equal(
      (await platformsOf(t, lms.issuer)).find((r) => r.client_id === 'dr-fixed-client')!
        .organisation_id,
      demo,
    );
  });

  test("the configuration's authorization_server becomes the token audience; none keeps what was entered", async () => {
    const audience = () =>
      t.db.query<{ token_audience: string | null }>(
        `select token_audience from lti_platforms where issuer = $1 and client_id = 'dr-aud-client'`,
        [lms.issuer],
      );
    lms.nextClientId = () => 'dr-aud-client';
    lms.configuration.authorization_server = 'https://api.brightspace.com/auth/token';
    assert.equal((await register(lms.registerQuery((await newToken(t, demo)).token))).statusCode, 200);
    assert.deepEqual((await audience()).rows, [{ token_audience: 'https://api.brightspace.com/auth/token' }]);

    // A re-registration whose configuration names none leaves the audience as it was.
    delete lms.configuration.authorization_server;
    assert.equal((await register(lms.registerQuery((await newToken(t, demo)).token))).statusCode, 200);
    assert.deepEqual((await audience()).rows, [{ token_audience: 'https://api.brightspace.com/auth/token' }]);

    // Without it a new registration has none: the token URL is the audience.
    lms.nextClientId = () => 'dr-no-aud-client';
    assert.equal((await register(lms.registerQuery((await newToken(t, demo)).token))).statusCode, 200);
    const none = await t.db.query(
      `select token_audience from lti_platforms where issuer = $1 and client_id = 'dr-no-aud-client'`,
      [lms.issuer],
    );
    assert.deepEqual(none.rows, [{ token_audience: null }]);

    lms.reset();
    lms.configuration.authorization_server = 'javascript:alert(1)';
    await refused(lms.registerQuery((await newToken(t, demo)).token), 'INSECURE_URL');
  });

  test('unknown, malformed, missing and expired portal tokens are refused before the platform is called', async () => {
    await refused(lms.registerQuery('A'.repeat(43)), 'INVALID_PORTAL_TOKEN');
    await refused(lms.registerQuery('not a token'), 'INVALID_PORTAL_TOKEN');
    await refused(
      new URLSearchParams({ openid_configuration: lms.configurationUrl }).toString(),
      'INVALID_REQUEST',
    );
    const made = await newToken(t, demo);
    await refused(new URLSearchParams({ portal_token: made.token }).toString(), 'INVALID_REQUEST');
    await t.db.query(
      `update lti_registration_tokens
          set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
        where used_at is null`,
    );
    await refused(lms.registerQuery(made.token), 'INVALID_PORTAL_TOKEN');
    assert.equal(lms.registrations.length, 0);
  });

  test('an issuer that is no prefix of the configuration URL is refused', async () => {
    const made = await newToken(t, demo);
    lms.configuration.issuer = 'http://127.0.0.1:1';
    await refused(lms.registerQuery(made.token), 'ISSUER_MISMATCH');
    lms.configuration.issuer = `${lms.issuer}/other`;
    await refused(lms.registerQuery(made.token), 'ISSUER_MISMATCH');
    assert.equal(lms.registrations.length, 0);
    // The token is still good after refusals: the platform's administrator may try again.
    lms.reset();
    assert.equal((await register(lms.registerQuery(made.token))).statusCode, 200);
  });

  test('a configuration missing a required field is refused', async () => {
    // A fresh URL per try: each one is good for three.
    const fresh = async () => (await newToken(t, demo)).token;
    for (const field of [
      'issuer',
      'authorization_endpoint',
      'token_endpoint',
      'jwks_uri',
      'registration_endpoint',
      'https://purl.imsglobal.org/spec/lti-platform-configuration',
    ]) {
      lms.reset();
      delete lms.configuration[field];
      await refused(lms.registerQuery(await fresh()), 'INVALID_CONFIGURATION');
    }
    lms.reset();
    lms.configuration.token_endpoint_auth_methods_supported = ['client_secret_basic'];
    await refused(lms.registerQuery(await fresh()), 'INVALID_CONFIGURATION');
    lms.reset();
    lms.configuration.jwks_uri = 'http://lms.example.test/jwks';
    await refused(lms.registerQuery(await fresh()), 'INSECURE_URL');
    lms.reset();
    // A redirect is not followed, even to a page of the same platform: it could lead anywhere.
    lms.configurationAnswer = { status: 302, headers: { location: `${lms.issuer}/moved` } };
    await refused(lms.registerQuery(await fresh()), 'CONFIGURATION_UNAVAILABLE');
    lms.reset();
    lms.configurationAnswer = { body: '<html>not json</html>' };
    await refused(lms.registerQuery(await fresh()), 'INVALID_CONFIGURATION');
    lms.reset();
    lms.configurationAnswer = { body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) };
    await refused(lms.registerQuery(await fresh()), 'INVALID_CONFIGURATION');
    assert.equal(lms.registrations.length, 0);
  });

  test('a platform that answers 4xx, 5xx, a bad registration or too late: nothing stored', async () => {
    const fresh = async () => (await newToken(t, demo)).token;
    lms.configurationAnswer = { status: 404 };
    await refused(lms.registerQuery(await fresh()), 'CONFIGURATION_UNAVAILABLE');
    lms.reset();
    lms.configurationAnswer = { status: 503 };
    await refused(lms.registerQuery(await fresh()), 'CONFIGURATION_UNAVAILABLE');
    lms.reset();
    lms.registrationAnswer = { status: 400, body: { error: 'invalid_client_metadata' } };
    await refused(lms.registerQuery(await fresh()), 'REGISTRATION_REFUSED');
    lms.reset();
    lms.registrationAnswer = { status: 500, body: {} };
    await refused(lms.registerQuery(await fresh()), 'REGISTRATION_REFUSED');
    lms.reset();
    // The platform refuses a wrong registration token (401).
    await refused(
      lms.registerQuery(await fresh(), { registration_token: 'wrong' }),
      'REGISTRATION_REFUSED',
    );
    lms.reset();
    lms.registrationAnswer = { body: { client_name: 'no client id' } };
    await refused(lms.registerQuery(await fresh()), 'INVALID_REGISTRATION');
    lms.reset();
    lms.registrationAnswer = { body: { client_id: 'c', [TOOL_CLAIM]: { deployment_id: 42 } } };
    await refused(lms.registerQuery(await fresh()), 'INVALID_REGISTRATION');
    lms.reset();
    lms.registrationAnswer = { delayMs: 6_000 };
    const started = Date.now();
    await refused(lms.registerQuery(await fresh()), 'CONFIGURATION_UNAVAILABLE');
    assert.ok(Date.now() - started < 5_900, 'the tool gave up at its timeout');
  });

  test('a registration URL is spent after three failed tries, parallel ones included', async () => {
    const made = await newToken(t, demo);
    const attempts = async () =>
      (
        await t.db.query<{ attempts: number }>(
          'select attempts from lti_registration_tokens where token_hash = $1',
          [createHash('sha256').update(made.token).digest('hex')],
        )
      ).rows[0]!.attempts;
    // Probes of internal addresses: each one a failed try, none of them called.
    for (const target of ['https://10.0.0.1/.well-known/openid-configuration', 'https://169.254.169.254/latest']) {
      await refused(
        new URLSearchParams({ openid_configuration: target, portal_token: made.token }).toString(),
        'INSECURE_URL',
      );
    }
    assert.equal(await attempts(), 2);
    lms.configurationAnswer = { status: 503 };
    await refused(lms.registerQuery(made.token), 'CONFIGURATION_UNAVAILABLE');
    assert.equal(await attempts(), 3);
    // The platform now works, but the URL is spent: the platform is not even asked.
    lms.reset();
    await refused(lms.registerQuery(made.token), 'INVALID_PORTAL_TOKEN');
    assert.equal(lms.registrations.length, 0);
    assert.equal(await attempts(), 3);

    // Tries are counted before the platform is called: five at once get three calls at most.
    const other = await newToken(t, demo);
    lms.configurationAnswer = { status: 503 };
    const pages = await Promise.all(
      Array.from({ length: 5 }, () => register(lms.registerQuery(other.token))),
    );
    const codes = pages.map((p) => /<code>([A-Z_]+)<\/code>/.exec(p.body)?.[1]).sort();
    assert.deepEqual(codes, [
      'CONFIGURATION_UNAVAILABLE',
      'CONFIGURATION_UNAVAILABLE',
      'CONFIGURATION_UNAVAILABLE',
      'INVALID_PORTAL_TOKEN',
      'INVALID_PORTAL_TOKEN',
    ]);
  });

  test('the page speaks German to a German browser, English otherwise', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/lti/register?${lms.registerQuery('A'.repeat(43))}`,
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' },
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /<html lang="de">/);
    assert.ok(res.body.includes('Registrierung fehlgeschlagen'));
    assert.equal(pageLanguage('fr-FR, en;q=0.5, de;q=0.4'), 'en');
    assert.equal(pageLanguage('en;q=0.2, de;q=0.8'), 'de');
    assert.equal(pageLanguage('de;q=0'), 'en');
    assert.equal(pageLanguage(undefined), 'en');
  });

  test('registration URLs and the tool configuration: global administrators only', async () => {
    const forOrgAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/v1/organisation/${demo}/lti/registration-token`,
      headers: { ...(await authHeader(orgAdmin.sub)), ...xsrfHeaders() },
    });
    assert.equal(forOrgAdmin.statusCode, 403);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organisation/999999/lti/registration-token',
      headers: { ...(await authHeader(sysAdmin.sub)), ...xsrfHeaders() },
    });
    assert.equal(unknown.statusCode, 404);
    const tool = await t.app.inject({
      method: 'GET',
      url: '/api/v1/lti/tool',
      headers: await authHeader(sysAdmin.sub),
    });
    assert.equal(tool.statusCode, 200);
    assert.deepEqual(tool.json<LtiToolConfiguration>(), {
      registrationUrl: 'http://localhost:8080/api/lti/register',
      loginUrl: 'http://localhost:8080/api/lti/login',
      launchUrl: 'http://localhost:8080/api/lti/launch',
      redirectUrls: ['http://localhost:8080/api/lti/launch'],
      deepLinkingUrl: 'http://localhost:8080/api/lti/launch',
      jwksUrl: 'http://localhost:8080/api/lti/jwks',
      domain: 'localhost:8080',
      scopes: [
        'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
        'https://purl.imsglobal.org/spec/lti-ags/scope/score',
        'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
      ],
    });
  });
});

describe('LTI Dynamic Registration on a portal served over https', () => {
  let t: TestApp;
  let lms: RegistrationPlatform;
  before(async () => {
    t = await buildTestApp({ portalUrl: 'https://portal.example.test' });
    lms = await serveRegistrationPlatform();
  });
  after(async () => {
    await lms.close();
    await t.close();
  });

  test('a platform on http, even on loopback, is refused without being called', async () => {
    const made = await newToken(t, await organisationId(t, 'Demo Hospital'));
    assert.ok(made.url.startsWith('https://portal.example.test/api/lti/register?portal_token='));
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/lti/register?${lms.registerQuery(made.token)}`,
    });
    assert.equal(res.statusCode, 400);
    assert.ok(res.body.includes('<code>INSECURE_URL</code>'));
    assert.equal(lms.registrations.length, 0);
    assert.equal(
      (await t.db.query('select 1 from lti_platforms where issuer = $1', [lms.issuer])).rowCount,
      0,
    );
    assert.match(res.headers['content-security-policy'] as string, /frame-ancestors https:(;|$)/);
  });
});

describe('the URL rule of a registration', () => {
  test('https anywhere; http only for loopback hosts and only on a portal served over http', () => {
    assert.ok(platformUrl('https://lms.example.test/x', false));
    assert.equal(platformUrl('http://lms.example.test/x', true), null);
    assert.ok(platformUrl('http://127.0.0.1:9000/x', true));
    assert.ok(platformUrl('http://localhost:9000/x', true));
    assert.ok(platformUrl('http://[::1]:9000/x', true));
    assert.equal(platformUrl('http://127.0.0.1:9000/x', false), null);
    assert.equal(platformUrl('https://user:pw@lms.example.test/', false), null);
    assert.equal(platformUrl('ftp://lms.example.test/', true), null);
    assert.equal(platformUrl('javascript:alert(1)', true), null);
    assert.equal(platformUrl(42, true), null);
    assert.equal(isLoopbackHost('127.12.0.1'), true);
    assert.equal(isLoopbackHost('128.0.0.1'), false);
    assert.equal(isLoopbackHost('localhost.example.test'), false);
  });

  test('the issuer is a prefix of the configuration URL at a path boundary', () => {
    assert.ok(
      issuerMatches('https://lms.test', 'https://lms.test/.well-known/openid-configuration'),
    );
    assert.ok(
      issuerMatches('https://lms.test/', 'https://lms.test/.well-known/openid-configuration'),
    );
    assert.ok(issuerMatches('https://lms.test/t/1', 'https://lms.test/t/1/.well-known/x'));
    assert.equal(
      issuerMatches('https://lms.test', 'https://lms.test.evil.example/.well-known/x'),
      false,
    );
    assert.equal(
      issuerMatches('https://lms.test/t/1', 'https://lms.test/t/10/.well-known/x'),
      false,
    );
    assert.equal(issuerMatches('https://other.test', 'https://lms.test/.well-known/x'), false);
  });
});
