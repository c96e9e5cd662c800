import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { BrightspaceAuthStartResponse, CurrentUser } from '@portal/contract';
import { startLms, USERS as LMS_USERS, type RunningLms } from '@portal/lms';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../helper';
import { brightspaceUser, startTestBrightspace, type TestBrightspace } from './brightspace-server';

// Demo Brightspace College is the demo organisation whose platform is Brightspace.
const learner = account('learner', 'Demo Brightspace College');
const educator = account('educator', 'Demo Brightspace College');
const orgAdmin = account('org admin', 'Demo Brightspace College');
const sysAdmin = account('sys admin');
const otherLearner = account('learner', 'Other College');
/** Demo Hospital's accounts, whom Brightspace sign-in must leave alone (issue #25 point 6). */
const hospital = [
  account('learner', 'Demo Hospital'),
  account('educator', 'Demo Hospital'),
  account('org admin', 'Demo Hospital'),
];

interface Started {
  url: string;
  cookie: string;
}

/** POST /api/v1/user/brightspace-auth as `sub`: the one-time URL and the browser's cookie. */
async function startAuth(t: TestApp, sub: string, redirectPath: string): Promise<Started> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/user/brightspace-auth',
    headers: { ...(await authHeader(sub)), ...xsrfHeaders() },
    payload: { redirectPath },
  });
  assert.equal(res.statusCode, 200, res.body);
  const cookie = res.cookies.find((c) => c.name.startsWith('bs_oauth_'));
  assert.ok(cookie, 'the browser-binding cookie is set');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.path, '/api/brightspace-auth');
  return {
    url: res.json<BrightspaceAuthStartResponse>().url,
    cookie: `${cookie.name}=${cookie.value}`,
  };
}

/** The browser at Brightspace: follows the authorization URL to the callback URL it redirects to. */
async function atBrightspace(authorizationUrl: string): Promise<URL> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!);
}

/** The whole round trip as one browser: start, redirect, Brightspace, callback. Returns the callback's answer. */
async function roundTrip(t: TestApp, sub: string, redirectPath: string) {
  const started = await startAuth(t, sub, redirectPath);
  const go = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
  assert.equal(go.statusCode, 302, go.body);
  const callback = await atBrightspace(go.headers.location as string);
  const res = await t.app.inject({
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: started.cookie },
  });
  return { res, callback, started };
}

const errorOf = (res: { statusCode: number; headers: Record<string, unknown> }) => {
  assert.equal(res.statusCode, 302);
  const location = new URL(res.headers.location as string, 'http://portal.test');
  assert.equal(location.pathname, '/brightspace-auth/error');
  return location.searchParams.get('error');
};

async function whoami(t: TestApp, sub: string): Promise<CurrentUser> {
  const res = await t.app.inject({ url: '/api/v1/user/whoami', headers: await authHeader(sub) });
  assert.equal(res.statusCode, 200);
  return res.json<CurrentUser>();
}

async function linkOf(t: TestApp, userId: string) {
  const res = await t.db.query<{ identifier: string; unique_name: string }>(
    'select identifier, unique_name from brightspace_user_links where user_id = $1',
    [userId],
  );
  return res.rows[0] ?? null;
}

describe('Brightspace OAuth (issue #10 point 6)', () => {
  let t: TestApp;
  let bs: TestBrightspace;
  let college: number;
  let otherCollege: number;

  /** A platform of `organisation` and a launch of `userId` as platform user `sub`. */
  async function launch(
    userId: string,
    sub: string,
    organisation = college,
    ageSeconds = 0,
    brightspaceUserId: string | null = null,
  ) {
    const platform = await t.db.query<{ id: number }>(
      `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
                                  deployment_ids, organisation_id)
       values ('https://bs.test', $1, 'https://bs.test/a', 'https://bs.test/t', 'https://bs.test/j',
               '{d}', $2) returning id`,
      [`client-${randomUUID()}`, organisation],
    );
    await t.db.query(
      `insert into lti_launches (id, platform_id, deployment_id, message_type, platform_sub,
                                 user_id, created_at, brightspace_user_id)
       values ($1, $2, 'd', 'LtiResourceLinkRequest', $3, $4, now() - make_interval(secs => $5),
               $6)`,
      [randomUUID(), platform.rows[0]!.id, sub, userId, ageSeconds, brightspaceUserId],
    );
    // As the launch route does: whoami must see a launch at once.
    t.app.authUsers.forget(userId);
  }

  before(async () => {
    bs = await startTestBrightspace();
    t = await buildTestApp({ brightspace: bs.config });
    const orgs = await t.db.query<{ id: number; name: string }>(
      'select id, name from organisations',
    );
    college = orgs.rows.find((o) => o.name === 'Demo Brightspace College')!.id;
    otherCollege = orgs.rows.find((o) => o.name === 'Other College')!.id;
  });
  after(async () => {
    await t.close();
    await bs.close();
  });
  beforeEach(async () => {
    bs.signedIn = brightspaceUser('1001');
    bs.deny = false;
    bs.tokenDown = false;
    bs.whoamiMoved = false;
    bs.whoamiRequests = 0;
    bs.tokenRequests.length = 0;
    await t.db.query('delete from brightspace_user_links');
    await t.db.query('delete from lti_launches');
  });

  test('the full code flow links the Brightspace user and returns to redirect_path', async () => {
    assert.equal((await whoami(t, learner.sub)).isBrightspaceAuthRequired, true);
    const started = await startAuth(t, learner.sub, '/simulation/1/2?mode=vr');
    const url = new URL(started.url, 'http://portal.test');
    assert.equal(url.pathname, '/api/brightspace-auth');
    assert.equal(url.searchParams.get('redirect_path'), '/simulation/1/2?mode=vr');

    const go = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    assert.equal(go.statusCode, 302);
    const auth = new URL(go.headers.location as string);
    assert.equal(`${auth.origin}${auth.pathname}`, bs.config.authUrl);
    assert.equal(auth.searchParams.get('response_type'), 'code');
    assert.equal(auth.searchParams.get('client_id'), bs.config.clientId);
    assert.equal(auth.searchParams.get('scope'), 'core:*:*');
    assert.equal(
      auth.searchParams.get('redirect_uri'),
      'http://localhost:8080/api/brightspace-auth/callback',
    );
    assert.equal(auth.searchParams.get('state'), url.searchParams.get('state'));

    const callback = await atBrightspace(auth.toString());
    const res = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: started.cookie },
    });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/simulation/1/2?mode=vr');

    assert.deepEqual(await linkOf(t, learner.sub), {
      identifier: '1001',
      unique_name: 'bea@lms.test',
    });
    // The client authenticated with HTTP Basic, never with the secret in the body.
    assert.equal(bs.tokenRequests.length, 1);
    assert.match(bs.tokenRequests[0]!.authorization ?? '', /^Basic /);
    assert.equal(bs.tokenRequests[0]!.body.get('client_secret'), null);
    // At once, not after the auth cache's few seconds.
    const user = await whoami(t, learner.sub);
    assert.equal(user.isBrightspaceAuthRequired, false);
    assert.equal(user.brightspaceUserMismatch, false);

    const audit = await t.db.query<{
      action: string;
      actor_id: string;
      after: { identifier: string };
    }>(
      `select action, actor_id, after from audit_log where entity_type = 'brightspace_link'
        order by id desc limit 1`,
    );
    assert.equal(audit.rows[0]?.action, 'create');
    assert.equal(audit.rows[0]?.actor_id, learner.sub);
    assert.equal(audit.rows[0]?.after.identifier, '1001');
  });

  test('a second round trip re-links to whoever is signed in at Brightspace now', async () => {
    await roundTrip(t, learner.sub, '/');
    bs.signedIn = brightspaceUser('2002', 'Ben');
    const { res } = await roundTrip(t, learner.sub, '/report');
    assert.equal(res.headers.location, '/report');
    assert.equal((await linkOf(t, learner.sub))?.identifier, '2002');
  });

  for (const evil of [
    '//evil.test',
    '//evil.test/path',
    'https://evil.test',
    '/\\evil.test',
    '/\\/evil.test',
    'javascript:alert(1)',
    'evil.test',
    '',
    '/\t/evil.test',
    ' /simulation',
  ]) {
    test(`redirect_path ${JSON.stringify(evil)} ends on /`, async () => {
      const { res, started } = await roundTrip(t, learner.sub, evil);
      assert.equal(
        new URL(started.url, 'http://portal.test').searchParams.get('redirect_path'),
        '/',
      );
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/');
      assert.equal((await linkOf(t, learner.sub))?.identifier, '1001');
    });
  }

  test('editing redirect_path in the URL does not change where the callback goes', async () => {
    const started = await startAuth(t, learner.sub, '/support');
    const url = new URL(started.url, 'http://portal.test');
    url.searchParams.set('redirect_path', '//evil.test');
    const go = await t.app.inject({
      url: `${url.pathname}${url.search}`,
      headers: { cookie: started.cookie },
    });
    const callback = await atBrightspace(go.headers.location as string);
    const res = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: started.cookie },
    });
    assert.equal(res.headers.location, '/support');
  });

  test('a state is used once: the same callback again is refused and changes nothing', async () => {
    const { res, callback, started } = await roundTrip(t, learner.sub, '/');
    assert.equal(res.statusCode, 302);
    bs.signedIn = brightspaceUser('3003');
    const again = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: started.cookie },
    });
    assert.equal(errorOf(again), 'INVALID_STATE');
    // The start URL of a used state does not lead to Brightspace again either.
    const restart = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    assert.equal(errorOf(restart), 'INVALID_STATE');
    assert.equal((await linkOf(t, learner.sub))?.identifier, '1001');
  });

  test('an expired state (over 10 minutes) is refused at the start and at the callback', async () => {
    const started = await startAuth(t, learner.sub, '/');
    const go = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    const callback = await atBrightspace(go.headers.location as string);
    await t.db.query(
      "update brightspace_oauth_states set created_at = now() - interval '601 seconds'",
    );
    const late = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    assert.equal(errorOf(late), 'INVALID_STATE');
    const res = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: started.cookie },
    });
    assert.equal(errorOf(res), 'INVALID_STATE');
    assert.equal(await linkOf(t, learner.sub), null);
  });

  test('a state finishes only in the browser that started it (no cookie, another cookie)', async () => {
    const started = await startAuth(t, learner.sub, '/');
    const noCookie = await t.app.inject({ url: started.url });
    assert.equal(errorOf(noCookie), 'INVALID_STATE');
    const go = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    const callback = await atBrightspace(go.headers.location as string);
    const name = started.cookie.split('=')[0]!;
    const forged = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: `${name}=${'x'.repeat(43)}` },
    });
    assert.equal(errorOf(forged), 'INVALID_STATE');
    assert.equal(await linkOf(t, learner.sub), null);
  });

  test('unknown, missing and malformed states end on the error page', async () => {
    for (const url of [
      '/api/brightspace-auth?redirect_path=/',
      '/api/brightspace-auth?state=AAAAAAAAAAAAAAAAAAAAAAAA',
      '/api/brightspace-auth?state=%3Cscript%3E',
      '/api/brightspace-auth/callback?code=abc',
      '/api/brightspace-auth/callback?code=abc&state=AAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const res = await t.app.inject({ url });
      assert.equal(errorOf(res), 'INVALID_STATE', url);
    }
  });

  test('a user who refuses at Brightspace ends on the error page, unlinked', async () => {
    bs.deny = true;
    const { res } = await roundTrip(t, learner.sub, '/');
    assert.equal(errorOf(res), 'ACCESS_DENIED');
    assert.equal(await linkOf(t, learner.sub), null);
  });

  test('a token endpoint failure or an unreachable Brightspace is a clear error, never a 500', async () => {
    bs.tokenDown = true;
    const { res } = await roundTrip(t, learner.sub, '/');
    assert.equal(errorOf(res), 'BRIGHTSPACE_FAILED');

    bs.tokenDown = false;
    const started = await startAuth(t, learner.sub, '/');
    const go = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    const callback = await atBrightspace(go.headers.location as string);
    // A code the token endpoint does not know (invalid_grant).
    callback.searchParams.set('code', 'not-a-code');
    const bad = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: started.cookie },
    });
    assert.equal(errorOf(bad), 'BRIGHTSPACE_FAILED');
    assert.equal(await linkOf(t, learner.sub), null);
  });

  test('Brightspace calls go through the guarded client: a redirect is refused, not followed', async () => {
    bs.whoamiMoved = true;
    const { res } = await roundTrip(t, learner.sub, '/');
    assert.equal(errorOf(res), 'BRIGHTSPACE_FAILED');
    assert.equal(bs.whoamiRequests, 1, 'the redirect was not followed');
    assert.equal(await linkOf(t, learner.sub), null);
  });

  test('whoami: learners and educators of a Brightspace organisation must sign in; admins and other LMSs not', async () => {
    assert.equal((await whoami(t, learner.sub)).isBrightspaceAuthRequired, true);
    assert.equal((await whoami(t, educator.sub)).isBrightspaceAuthRequired, true);
    assert.equal((await whoami(t, orgAdmin.sub)).isBrightspaceAuthRequired, false);
    assert.equal((await whoami(t, sysAdmin.sub)).isBrightspaceAuthRequired, false);
    assert.equal((await whoami(t, otherLearner.sub)).isBrightspaceAuthRequired, false);
    for (const who of [learner, educator, orgAdmin, sysAdmin, otherLearner]) {
      assert.equal((await whoami(t, who.sub)).brightspaceUserMismatch, false, who.email);
    }
  });

  test("whoami: Demo Hospital's learner, educator and org admin reach their home page, never Brightspace (issue #25 point 6)", async () => {
    for (const who of hospital) {
      assert.deepEqual(flags(await whoami(t, who.sub)), [false, false], who.email);
    }
  });

  test('whoami: mismatch only when the link differs from the latest launch of the own organisation', async () => {
    await roundTrip(t, learner.sub, '/');
    // Linked, never launched: nothing to differ from.
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
    await launch(learner.sub, '1001', college, 60);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
    await launch(learner.sub, '9999', college, 30);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, true]);
    // The latest launch is the one that counts.
    await launch(learner.sub, '1001', college, 0);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
    // A newer launch from another organisation's platform does not.
    await t.db.query('delete from lti_launches');
    await launch(learner.sub, '1001', college, 60);
    await launch(learner.sub, '7777', otherCollege, 0);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
  });

  test("whoami: with D2L's own user id in the launch, that id is compared, not the opaque LTI sub", async () => {
    await roundTrip(t, learner.sub, '/');
    // Real D2L: `sub` is an opaque id, the claim's user_id is the Identifier the link holds (1001).
    await launch(learner.sub, 'b7e1c0de-4c1a-4b8e-9d2f-0a1b2c3d4e5f_1001', college, 30, '1001');
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
    // Another D2L user in the platform, even with a sub that happens to read 1001.
    await launch(learner.sub, '1001', college, 0, '2002');
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, true]);
  });

  test('whoami: an org admin with a link can have a mismatch too (and may stay on the page)', async () => {
    await roundTrip(t, orgAdmin.sub, '/');
    await launch(orgAdmin.sub, '4242');
    assert.deepEqual(flags(await whoami(t, orgAdmin.sub)), [false, true]);
  });

  test('POST brightspace-auth-reset clears the link: no mismatch, sign in again; 204 also without a link', async () => {
    await roundTrip(t, learner.sub, '/');
    await launch(learner.sub, '9999');
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, true]);
    const headers = { ...(await authHeader(learner.sub)), ...xsrfHeaders() };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth-reset',
      headers,
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(await linkOf(t, learner.sub), null);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [true, false]);
    const audit = await t.db.query<{ action: string; before: { identifier: string } }>(
      `select action, before from audit_log where entity_type = 'brightspace_link'
        order by id desc limit 1`,
    );
    assert.equal(audit.rows[0]?.action, 'delete');
    assert.equal(audit.rows[0]?.before.identifier, '1001');

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth-reset',
      headers,
    });
    assert.equal(again.statusCode, 204);
  });

  test('reset clears only the caller’s link', async () => {
    await roundTrip(t, learner.sub, '/');
    await roundTrip(t, educator.sub, '/');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth-reset',
      headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
    });
    assert.equal(res.statusCode, 204);
    assert.equal((await linkOf(t, learner.sub))?.identifier, '1001');
    assert.equal(await linkOf(t, educator.sub), null);
  });

  test('the start needs a signed-in user and the XSRF header; bad bodies answer 400', async () => {
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth',
      headers: xsrfHeaders(),
      payload: { redirectPath: '/' },
    });
    assert.equal(noToken.statusCode, 401);
    const noXsrf = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth',
      headers: await authHeader(learner.sub),
      payload: { redirectPath: '/' },
    });
    assert.equal(noXsrf.statusCode, 403);
    const headers = { ...(await authHeader(learner.sub)), ...xsrfHeaders() };
    for (const payload of [{}, { redirectPath: 5 }, { redirectPath: `/${'a'.repeat(2000)}` }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user/brightspace-auth',
        headers,
        payload,
      });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
    }
  });
});

describe('Brightspace OAuth not configured', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('no flag is ever set, the start answers 404 and the browser routes end on the error page', async () => {
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth',
      headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders() },
      payload: { redirectPath: '/' },
    });
    assert.equal(res.statusCode, 404);
    assert.equal(
      errorOf(await t.app.inject({ url: '/api/brightspace-auth?redirect_path=/' })),
      'INVALID_STATE',
    );
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth-reset',
      headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders() },
    });
    assert.equal(reset.statusCode, 204);
  });
});

function flags(user: CurrentUser): [boolean, boolean] {
  return [user.isBrightspaceAuthRequired, user.brightspaceUserMismatch];
}

/**
 * The same round trip against the learning-platform stand-in (@portal/lms), which plays
 * Brightspace as `npm start` runs it: its own sign-in, D2L OAuth endpoints and Valence whoami,
 * whose Identifier is the `sub` of that user's LTI launches. The in-test server above stays for
 * what the stand-in cannot be made to do (a user refusing, a token endpoint outage).
 */
describe('Brightspace OAuth against the stand-in', () => {
  const SECRET = 'stand-in-brightspace-secret-0123456789';
  let t: TestApp;
  let lms: RunningLms;
  let lmsSession: string;

  before(async () => {
    lms = await startLms({ portalUrl: 'http://localhost:8080', brightspaceClientSecret: SECRET });
    t = await buildTestApp({
      brightspace: {
        host: lms.url,
        authUrl: `${lms.url}/d2l/oauth2/auth`,
        tokenUrl: `${lms.url}/d2l/oauth2/token`,
        clientId: 'portal-brightspace',
        clientSecret: SECRET,
        apiVersion: '1.43',
      },
    });
    // Signed in to the stand-in as its copy of the college's learner.
    const lmsLearner = LMS_USERS.find((u) => u.email === learner.email)!;
    const login = await fetch(`${lms.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ user: lmsLearner.id, return: '/course' }),
    });
    assert.equal(login.status, 303);
    lmsSession = login.headers.get('set-cookie')!.split(';')[0]!;
  });
  after(async () => {
    await t.close();
    await lms.close();
  });

  test('the code flow links the stand-in user; a launch as someone else is a mismatch until the reset', async () => {
    const lmsLearner = LMS_USERS.find((u) => u.email === learner.email)!;
    assert.equal((await whoami(t, learner.sub)).isBrightspaceAuthRequired, true);

    const started = await startAuth(t, learner.sub, '/simulation');
    const go = await t.app.inject({ url: started.url, headers: { cookie: started.cookie } });
    assert.equal(go.statusCode, 302);
    // The browser at the stand-in, signed in there.
    const auth = await fetch(go.headers.location as string, {
      redirect: 'manual',
      headers: { cookie: lmsSession },
    });
    assert.equal(auth.status, 302);
    const callback = new URL(auth.headers.get('location')!);
    assert.equal(callback.origin, 'http://localhost:8080');
    const res = await t.app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: started.cookie },
    });
    assert.equal(res.statusCode, 302, res.headers.location as string);
    assert.equal(res.headers.location, '/simulation');

    const link = await t.db.query<{ identifier: string; unique_name: string }>(
      'select identifier, unique_name from brightspace_user_links where user_id = $1',
      [learner.sub],
    );
    assert.deepEqual(link.rows[0], { identifier: lmsLearner.id, unique_name: learner.email });
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);

    // Launches from the college's Brightspace: as the linked user, then as another one.
    const college = (
      await t.db.query<{ id: number }>(
        "select id from organisations where name = 'Demo Brightspace College'",
      )
    ).rows[0]!.id;
    const platform = await t.db.query<{ id: number }>(
      `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
                                  deployment_ids, organisation_id)
       values ($1, 'portal-tool-brightspace', $2, $3, $4, '{brightspace-deployment}', $5)
       returning id`,
      [
        lms.url,
        `${lms.url}/lti/auth`,
        `${lms.url}/oauth2/token`,
        `${lms.url}/.well-known/jwks.json`,
        college,
      ],
    );
    const launchAs = async (sub: string, ageSeconds: number) => {
      await t.db.query(
        `insert into lti_launches (id, platform_id, deployment_id, message_type, platform_sub,
                                   user_id, created_at)
         values ($1, $2, 'brightspace-deployment', 'LtiResourceLinkRequest', $3, $4,
                 now() - make_interval(secs => $5))`,
        [randomUUID(), platform.rows[0]!.id, sub, learner.sub, ageSeconds],
      );
      t.app.authUsers.forget(learner.sub);
    };
    await launchAs(lmsLearner.id, 60);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, false]);
    const someoneElse = LMS_USERS.find((u) => u.id !== lmsLearner.id)!;
    await launchAs(someoneElse.id, 0);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [false, true]);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth-reset',
      headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders() },
    });
    assert.equal(reset.statusCode, 204);
    assert.deepEqual(flags(await whoami(t, learner.sub)), [true, false]);
  });

  test('a wrong client secret at the stand-in is a clear error, not a link', async () => {
    const wrong = await buildTestApp({
      brightspace: {
        host: lms.url,
        authUrl: `${lms.url}/d2l/oauth2/auth`,
        tokenUrl: `${lms.url}/d2l/oauth2/token`,
        clientId: 'portal-brightspace',
        clientSecret: 'not-the-secret',
        apiVersion: '1.43',
      },
    });
    try {
      const started = await startAuth(wrong, educator.sub, '/');
      const go = await wrong.app.inject({ url: started.url, headers: { cookie: started.cookie } });
      const auth = await fetch(go.headers.location as string, {
        redirect: 'manual',
        headers: { cookie: lmsSession },
      });
      const callback = new URL(auth.headers.get('location')!);
      const res = await wrong.app.inject({
        url: `${callback.pathname}${callback.search}`,
        headers: { cookie: started.cookie },
      });
      assert.equal(errorOf(res), 'BRIGHTSPACE_FAILED');
      const links = await wrong.db.query('select 1 from brightspace_user_links');
      assert.equal(links.rows.length, 0);
    } finally {
      await wrong.close();
    }
  });
});
