import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importJWK, SignJWT, createLocalJWKSet, jwtVerify } from 'jose';
import type { LtiJwks } from '@portal/contract';
import { LTI_MESSAGES } from '@portal/contract';
import { buildTestApp, xsrfHeaders, type TestApp } from '../../helper';
import { createToolKeys } from '../../../src/lti/tool-keys';
import { SYSTEM_ACTOR } from '../../../src/repositories/audit-repository';
import { IDENTITY_KINDS } from '../../../src/identity/provisioning';
import {
  createTestPlatform,
  ROLES,
  serveJwks,
  type TestPlatform,
} from '../../lti/platform-fixtures';
import {
  loginQuery,
  ltiLaunch,
  ltiLaunchRequest,
  ltiLogin,
  registerPlatform,
  TOOL_LAUNCH_URL,
} from '../../lti/lti-fixtures';
import { educator, learner, productId, userHeaders } from '../api/v1/simulator/session-fixtures';

/**
 * The LTI 1.3 tool end to end in-process: a test platform with its own key pair, its JWKS served
 * over HTTP on 127.0.0.1, the real validator, real database, real seat assignment.
 */
describe('LTI 1.3 tool: login, launch, JWKS', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  let platformId: number;

  before(async () => {
    t = await buildTestApp();
    platform = await createTestPlatform();
    jwks = await serveJwks(() => [platform.publicJwk]);
    platformId = await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) =>
    (await t.db.query<T & Record<string, unknown>>(sql, params)).rows[0];

  describe('GET /api/lti/jwks and key rotation', () => {
    test('publishes the tool key made at start; a rotation keeps the old one for a day', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/api/lti/jwks' });
      assert.equal(first.statusCode, 200);
      const before = first.json<LtiJwks>();
      assert.equal(before.keys.length, 1);
      const [key] = before.keys;
      assert.deepEqual(Object.keys(key!).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
      assert.equal(key!.alg, 'RS256');
      assert.ok(!('d' in key!), 'no private part');

      const keys = createToolKeys(t.db);
      await keys.ensure();
      assert.equal((await keys.jwks()).keys.length, 1, 'ensure() makes no second key');

      // What the tool signs verifies with what it publishes, before and after a rotation.
      const signed = async () => {
        const { kid, key: privateKey } = await keys.signingKey();
        return new SignJWT({ iss: 'portal' })
          .setProtectedHeader({ alg: 'RS256', kid })
          .sign(privateKey);
      };
      const oldToken = await signed();
      // An immediate rotation (`lti:rotate-key --now`): the new key signs at once.
      const rotation = await keys.rotate({ actor: SYSTEM_ACTOR, reason: 'command', immediately: true });
      assert.ok(rotation.rotated);
      const newKid = rotation.kid;
      const rotated = (await t.app.inject({ method: 'GET', url: '/api/lti/jwks' })).json<LtiJwks>();
      assert.deepEqual(rotated.keys.map((k) => k.kid).sort(), [key!.kid, newKid].sort());
      assert.equal((await keys.signingKey()).kid, newKid);
      const published = createLocalJWKSet(rotated);
      await jwtVerify(oldToken, published);
      await jwtVerify(await signed(), published);

      await t.db.query(
        `update lti_tool_keys set retired_at = now() - interval '25 hours' where kid = $1`,
        [key!.kid],
      );
      const later = (await t.app.inject({ method: 'GET', url: '/api/lti/jwks' })).json<LtiJwks>();
      assert.deepEqual(
        later.keys.map((k) => k.kid),
        [newKid],
      );
      // The stored private key is a usable RS256 key.
      const row = await one<{ private_jwk: Record<string, unknown> }>(
        'select private_jwk from lti_tool_keys where kid = $1',
        [newKid],
      );
      await importJWK(row!.private_jwk as never, 'RS256');
    });
  });

  describe('GET|POST /api/lti/login', () => {
    test('redirects to the platform with the LTI auth request, stores state and nonce', async () => {
      const { location, state, nonce, cookie } = await ltiLogin(t.app, platform);
      assert.equal(`${location.origin}${location.pathname}`, `${platform.issuer}/auth`);
      const params = Object.fromEntries(location.searchParams);
      assert.deepEqual(params, {
        existing: '1',
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: platform.clientId,
        redirect_uri: TOOL_LAUNCH_URL,
        login_hint: 'user-hint-1',
        lti_message_hint: 'message-hint-1',
        state,
        nonce,
      });
      const row = await one<{ nonce: string; platform_id: number; used_at: unknown }>(
        'select nonce, platform_id, used_at from lti_login_states where state = $1',
        [state],
      );
      assert.deepEqual(row, { nonce, platform_id: platformId, used_at: null });
      assert.equal(cookie?.value, state);
      assert.equal(cookie?.httpOnly, true);
      assert.equal(cookie?.path, '/api/lti');
      assert.equal(cookie?.maxAge, 600);
    });

    test('as a form post too', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/lti/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: loginQuery(platform).toString(),
      });
      assert.equal(res.statusCode, 302, res.body);
      assert.ok(new URL(res.headers.location as string).searchParams.get('state'));
    });

    test('an unknown platform, a foreign target or deployment, missing parameters: 400', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ iss: 'https://unknown.test' }, 'iss'],
        [{ client_id: 'other-client' }, 'iss'],
        [{ target_link_uri: 'https://evil.test/api/lti/launch' }, 'target_link_uri'],
        [{ lti_deployment_id: 'deployment-9' }, 'lti_deployment_id'],
      ];
      const states = await one<{ n: number }>('select count(*)::int as n from lti_login_states');
      for (const [extra, field] of cases) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/lti/login?${loginQuery(platform, extra)}`,
        });
        assert.equal(res.statusCode, 400, JSON.stringify(extra));
        assert.ok(res.json<Record<string, string[]>>()[field], res.body);
      }
      const missing = await t.app.inject({
        method: 'GET',
        url: `/api/lti/login?iss=${encodeURIComponent(platform.issuer)}`,
      });
      assert.equal(missing.statusCode, 400);
      assert.ok(missing.json<Record<string, unknown>>().login_hint, missing.body);
      assert.deepEqual(
        await one('select count(*)::int as n from lti_login_states'),
        states,
        'a refused login stores nothing',
      );
    });
  });

  describe('POST /api/lti/launch', () => {
    test("a learner known by e-mail: linked, launch recorded, host's /lti/launch with the custom parameters", async () => {
      const radiography = await productId(t.db, 'radiography');
      const to = await ltiLaunch(t.app, platform, {
        sub: 'lms-lena',
        email: learner.email.toUpperCase(),
        claims: {
          'https://purl.imsglobal.org/spec/lti/claim/custom': {
            configuration: 'radiography.lower-limb.knee',
            protocol: 'vmc-radiography',
            productId: String(radiography),
            mode: 'Desktop',
          },
        },
      });
      assert.equal(`${to.origin}${to.pathname}`, 'http://localhost:8080/lti/launch');
      const launchId = to.searchParams.get('launchId')!;
      assert.deepEqual(Object.fromEntries(to.searchParams), {
        launchId,
        configuration: 'radiography.lower-limb.knee',
        protocol: 'vmc-radiography',
        productId: String(radiography),
        mode: 'Desktop',
      });
      const row = await one<Record<string, unknown>>(
        `select platform_id, deployment_id, message_type, platform_sub, roles, user_id::text,
                resource_link, context, ags_endpoint, custom
           from lti_launches where id = $1`,
        [launchId],
      );
      assert.deepEqual(row, {
        platform_id: platformId,
        deployment_id: platform.deploymentId,
        message_type: 'LtiResourceLinkRequest',
        platform_sub: 'lms-lena',
        roles: [ROLES.learner],
        user_id: learner.sub,
        resource_link: { id: 'resource-link-1', title: 'Knee, Desktop' },
        context: { id: 'course-1', title: 'Radiography 101' },
        ags_endpoint: {
          scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
          lineitem: 'https://lms.test/lineitems/1',
        },
        custom: {
          configuration: 'radiography.lower-limb.knee',
          protocol: 'vmc-radiography',
          productId: String(radiography),
          mode: 'Desktop',
        },
      });
      // From now on the link decides, whatever e-mail the platform sends.
      const again = await ltiLaunch(t.app, platform, {
        sub: 'lms-lena',
        email: 'changed@lms.test',
      });
      const second = await one<{ user_id: string }>(
        'select user_id::text from lti_launches where id = $1',
        [again.searchParams.get('launchId')],
      );
      assert.equal(second?.user_id, learner.sub);
      assert.equal(
        (
          await one<{ n: number }>(
            "select count(*)::int as n from users where email = 'changed@lms.test'",
          )
        )?.n,
        0,
      );
    });

    test('an unknown platform user is created just in time: learner, a seat, an identity account queued', async () => {
      const seatsBefore = await one<{ seats_used: number }>(
        "select seats_used from license_blocks where license_name = 'Demo Hospital 2026'",
      );
      const to = await ltiLaunch(t.app, platform, {
        sub: 'lms-new-1',
        email: 'new.learner@lms.test',
        roles: [ROLES.learner],
      });
      assert.equal(to.pathname, '/lti/launch');
      const user = await one<Record<string, unknown>>(
        `select u.id::text, u.first_name, u.last_name, r.name as role, u.account_status,
                o.name as organisation
           from users u join roles r on r.id = u.role_id join organisations o on o.id = u.organisation_id
          where u.email = 'new.learner@lms.test'`,
      );
      assert.deepEqual(
        { ...user, id: undefined },
        {
          id: undefined,
          first_name: 'Lena',
          last_name: 'Platform',
          role: 'learner',
          account_status: 'provisioning',
          organisation: 'Demo Hospital',
        },
      );
      const id = user!.id as string;
      const seat = await one<{ license_name: string }>(
        `select lb.license_name from license_block_users s
           join license_blocks lb on lb.id = s.license_block_id where s.user_id = $1`,
        [id],
      );
      assert.equal(seat?.license_name, 'Demo Hospital 2026');
      assert.equal(
        (
          await one<{ seats_used: number }>(
            "select seats_used from license_blocks where license_name = 'Demo Hospital 2026'",
          )
        )?.seats_used,
        seatsBefore!.seats_used + 1,
      );
      const outbox = await one<{ kind: string; email: string }>(
        `select kind, payload->>'email' as email from outbox where key = $1`,
        [`user:${id}`],
      );
      assert.deepEqual(outbox, { kind: IDENTITY_KINDS.create, email: 'new.learner@lms.test' });
      const link = await one<{ user_id: string }>(
        'select user_id::text from lti_user_links where issuer = $1 and platform_sub = $2',
        [platform.issuer, 'lms-new-1'],
      );
      assert.equal(link?.user_id, id);
      const audit = await one<{ action: string; actor_id: string }>(
        `select action, actor_id::text from audit_log where entity_type = 'user' and entity_id = $1`,
        [id],
      );
      assert.deepEqual(audit, { action: 'create', actor_id: id });
    });

    test('instructors and administrators become educators; a teaching assistant alone a learner', async () => {
      const roleOf = async (sub: string, roles: string[]) => {
        await ltiLaunch(t.app, platform, { sub, email: `${sub}@lms.test`, roles });
        return (
          await one<{ role: string }>(
            `select r.name as role from users u join roles r on r.id = u.role_id where u.email = $1`,
            [`${sub}@lms.test`],
          )
        )?.role;
      };
      assert.equal(await roleOf('lms-teacher', [ROLES.instructor]), 'educator');
      assert.equal(await roleOf('lms-admin', [ROLES.administrator]), 'educator');
      assert.equal(await roleOf('lms-ta', [ROLES.teachingAssistant]), 'learner');
    });

    test('no free seat: PERMISSION_DENIED and nothing created', async () => {
      const org = await one<{ id: number }>(
        "insert into organisations (name) values ('Seatless School') returning id",
      );
      const seatless = await createTestPlatform('https://seatless.test', 'portal');
      const id = await registerPlatform(t.db, seatless, jwks.url, org!.id);
      const served = platform.publicJwk;
      // The seatless platform's key joins the served set for this test.
      const both = await serveJwks(() => [served, seatless.publicJwk]);
      await t.db.query('update lti_platforms set jwks_url = $1 where id = $2', [both.url, id]);
      try {
        const to = await ltiLaunch(t.app, seatless, { sub: 'lms-x', email: 'seatless@lms.test' });
        assert.equal(to.toString(), 'http://localhost:8080/lti/error?error=PERMISSION_DENIED');
        const counts = await one<{
          users: number;
          links: number;
          launches: number;
          outbox: number;
        }>(
          `select (select count(*)::int from users where email = 'seatless@lms.test') as users,
                  (select count(*)::int from lti_user_links where issuer = 'https://seatless.test') as links,
                  (select count(*)::int from lti_launches where platform_id = $1) as launches,
                  (select count(*)::int from outbox where payload->>'email' = 'seatless@lms.test') as outbox`,
          [id],
        );
        assert.deepEqual(counts, { users: 0, links: 0, launches: 0, outbox: 0 });
        // A licence with a free seat lets the same user in.
        await t.db.query(
          `insert into license_blocks (organisation_id, license_name, number_of_seats, start_date,
                                       expiry_date, duration_id)
           values ($1, 'Seatless 2026', 1, current_date - 1, current_date + 30,
                   (select id from lookups where field = 'license_duration' and code = 'P1Y'))`,
          [org!.id],
        );
        const ok = await ltiLaunch(t.app, seatless, { sub: 'lms-x', email: 'seatless@lms.test' });
        assert.equal(ok.pathname, '/lti/launch');
        // Full now: the next new user is refused.
        const full = await ltiLaunch(t.app, seatless, {
          sub: 'lms-y',
          email: 'seatless2@lms.test',
        });
        assert.equal(full.searchParams.get('error'), 'PERMISSION_DENIED');
      } finally {
        await both.close();
      }
    });

    test('a deep linking request is recorded with its settings and goes to the picker route', async () => {
      const to = await ltiLaunch(t.app, platform, {
        sub: 'lms-teacher-dl',
        email: 'teacher.dl@lms.test',
        roles: [ROLES.instructor],
        claims: {
          'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingRequest',
          'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
            deep_link_return_url: 'https://lms.test/dl-return',
            accept_types: ['ltiResourceLink'],
          },
        },
        omit: ['https://purl.imsglobal.org/spec/lti/claim/resource_link'],
      });
      assert.equal(`${to.origin}${to.pathname}`, 'http://localhost:8080/lti/deep-link');
      const row = await one<{ message_type: string; return_url: string; role: string }>(
        `select l.message_type, l.deep_linking_settings->>'deep_link_return_url' as return_url,
                r.name as role
           from lti_launches l join users u on u.id = l.user_id join roles r on r.id = u.role_id
          where l.id = $1`,
        [to.searchParams.get('launchId')],
      );
      assert.deepEqual(row, {
        message_type: 'LtiDeepLinkingRequest',
        return_url: 'https://lms.test/dl-return',
        role: 'educator',
      });
    });

    test('HEAD of the login stores no state', async () => {
      const before = await one<{ n: number }>('select count(*)::int as n from lti_login_states');
      const res = await t.app.inject({
        method: 'HEAD',
        url: `/api/lti/login?${loginQuery(platform)}`,
      });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(await one('select count(*)::int as n from lti_login_states'), before);
    });

    test("an e-mail of another organisation's user is not taken over", async () => {
      const to = await ltiLaunch(t.app, platform, {
        sub: 'lms-other',
        email: 'learner@other.test',
      });
      const other = await one<{ organisation: string }>(
        `select o.name as organisation from users u join organisations o on o.id = u.organisation_id
          where u.email = 'learner@other.test'`,
      );
      assert.equal(other?.organisation, 'Other College', 'the demo data has that user');
      assert.equal(to.searchParams.get('error'), 'USER_NOT_LINKED');
    });

    test('refused launches go to /lti/error with the code; the state is spent', async () => {
      const wrongAud = await ltiLaunch(t.app, platform, { aud: 'another-tool' });
      assert.equal(wrongAud.toString(), 'http://localhost:8080/lti/error?error=INVALID_CLAIMS');

      const req = await ltiLaunchRequest(t.app, platform);
      const first = await t.app.inject({ method: 'POST', ...req });
      assert.equal(new URL(first.headers.location as string).pathname, '/lti/launch');
      const replay = await t.app.inject({ method: 'POST', ...req });
      assert.equal(replay.headers.location, 'http://localhost:8080/lti/error?error=INVALID_STATE');

      const empty = await t.app.inject({
        method: 'POST',
        url: '/api/lti/launch',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      assert.equal(empty.statusCode, 302);
      assert.equal(empty.headers.location, 'http://localhost:8080/lti/error?error=INVALID_STATE');
    });

    test('a state cookie of the browser must match; no XSRF header is needed', async () => {
      const { state, nonce } = await ltiLogin(t.app, platform);
      const { signLaunch } = await import('../../lti/platform-fixtures');
      const idToken = await signLaunch(platform, { nonce });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/lti/launch',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `lti_state_${state.slice(0, 16)}=someone-elses`,
        },
        payload: new URLSearchParams({ id_token: idToken, state }).toString(),
      });
      assert.equal(res.headers.location, 'http://localhost:8080/lti/error?error=INVALID_STATE');
    });

    test("the platform's JWKS is fetched once and cached across launches", async () => {
      const before = jwks.requests();
      for (let i = 0; i < 3; i++)
        await ltiLaunch(t.app, platform, { sub: 'lms-lena', email: learner.email });
      assert.ok(jwks.requests() - before <= 1, `${jwks.requests() - before} fetches`);
    });
  });

  describe('POST …/session with ltiLaunchId', () => {
    const startSession = async (sub: string, ltiLaunchId: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
        headers: await userHeaders(sub),
        payload: { configuration: 'radiography.lower-limb.knee', mode: 'Desktop', ltiLaunchId },
      });

    test("the caller's recent launch: the session keeps it", async () => {
      const to = await ltiLaunch(t.app, platform, { sub: 'lms-lena', email: learner.email });
      const launchId = to.searchParams.get('launchId')!;
      const res = await startSession(learner.sub, launchId);
      assert.equal(res.statusCode, 201, res.body);
      const row = await one<{ lti_launch_id: string }>(
        'select lti_launch_id from simulation_sessions where uuid = $1',
        [res.json<{ uuid: string }>().uuid],
      );
      assert.equal(row?.lti_launch_id, launchId);
    });

    test("someone else's launch, an unknown one or no uuid: 404", async () => {
      const to = await ltiLaunch(t.app, platform, { sub: 'lms-lena', email: learner.email });
      const launchId = to.searchParams.get('launchId')!;
      for (const [sub, id] of [
        [educator.sub, launchId],
        [learner.sub, '00000000-0000-4000-8000-000000000000'],
        [learner.sub, 'launch-42'],
      ] as const) {
        const res = await startSession(sub, id);
        assert.equal(res.statusCode, 404, `${sub} ${id}: ${res.body}`);
      }
    });

    test('a launch older than two hours: 400 on ltiLaunchId', async () => {
      const to = await ltiLaunch(t.app, platform, { sub: 'lms-lena', email: learner.email });
      const launchId = to.searchParams.get('launchId')!;
      await t.db.query(
        `update lti_launches set created_at = now() - interval '2 hours 1 minute' where id = $1`,
        [launchId],
      );
      const res = await startSession(learner.sub, launchId);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { ltiLaunchId: [LTI_MESSAGES.launchExpired] });
    });
  });

  test('XSRF: the launch takes cross-site posts, the platform routes do not', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lti/platform',
      headers: { ...(await userHeaders(learner.sub)), ...xsrfHeaders('a'), 'x-xsrf-token': 'b' },
      payload: {},
    });
    assert.equal(res.statusCode, 403);
  });
});
