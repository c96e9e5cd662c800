import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LtiFrameOrigins, LtiLaunchTicket, LtiLaunchTicketRedeemed } from '@portal/contract';
import { LTI_FRAME_MESSAGES } from '@portal/contract';
import { buildTestApp, xsrfHeaders, type TestApp } from '../../helper';
import { frameAncestorOrigin } from '../../../src/lti/frame-origins';
import { LAUNCH_BROWSER_COOKIE } from '../../../src/lti/launch-browser-cookie';
import { createLtiLaunchBrowserRepository } from '../../../src/repositories/lti-launch-browser-repository';
import { createTestPlatform, serveJwks, type TestPlatform } from '../../lti/platform-fixtures';
import { loginQuery, ltiLogin, registerPlatform } from '../../lti/lti-fixtures';
import { frameLaunch } from '../../lti/frame-launch';

/**
 * Embedded launches (issue #22 point 2): which origins may frame the LTI pages, the cookies a
 * launch needs on http and https, and the "Open in a new window" ticket.
 */

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

const launch = async (t: TestApp, platform: TestPlatform) => {
  const login = await ltiLogin(t.app, platform);
  const launched = await frameLaunch(t.app, platform, {
    claims: { 'https://purl.imsglobal.org/spec/lti/claim/custom': { mode: 'practice' } },
  });
  return { ...launched, login: login.response };
};

const cookieOf = (res: Response) => res.cookies.find((c) => c.name === LAUNCH_BROWSER_COOKIE);

describe('frame-ancestors origins of the registered platforms', () => {
  test('https origins pass; http only on loopback and only while the portal is on http', () => {
    const dev = 'http://localhost:8080';
    const prod = 'https://portal.example.org';
    assert.equal(
      frameAncestorOrigin('https://canvas.example.edu/api/lti/authorize', prod),
      'https://canvas.example.edu',
    );
    assert.equal(
      frameAncestorOrigin('http://localhost:8100/lti/auth', dev),
      'http://localhost:8100',
    );
    assert.equal(frameAncestorOrigin('http://127.0.0.1:8100', dev), 'http://127.0.0.1:8100');
    assert.equal(frameAncestorOrigin('http://localhost:8100', prod), null);
    assert.equal(frameAncestorOrigin('http://moodle.example.edu', dev), null);
    assert.equal(frameAncestorOrigin('https://user:pw@moodle.example.edu', prod), null);
    assert.equal(frameAncestorOrigin('javascript:alert(1)', prod), null);
    assert.equal(frameAncestorOrigin('not a url; script-src *', prod), null);
  });
});

describe('LTI embedded launches on a plain-http portal', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  const portalUrl = 'http://localhost:8080';

  before(async () => {
    t = await buildTestApp({ portalUrl });
    platform = await createTestPlatform('http://127.0.0.1:8199', 'frame-client');
    jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  test('GET /api/lti/frame-origins lists the platforms, answers 304 until a registration changes it', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/lti/frame-origins' });
    assert.equal(first.statusCode, 200);
    const body = first.json<LtiFrameOrigins>();
    assert.ok(body.origins.includes('http://127.0.0.1:8199'), JSON.stringify(body));
    assert.equal(first.headers.etag, `"${body.version}"`);

    const same = await t.app.inject({
      method: 'GET',
      url: '/api/lti/frame-origins',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    assert.equal(same.statusCode, 304);

    // A registration whose authorization endpoint is elsewhere, and one on plain http elsewhere.
    await t.db.query(
      `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
                                  deployment_ids, organisation_id)
       select 'https://canvas.example.edu', 'frame-2', 'https://sso.canvas.example.edu/authorize',
              'https://canvas.example.edu/token', 'https://canvas.example.edu/jwks', '{d}'::text[], id
         from organisations where name = 'Demo Hospital'
       union all
       select 'http://moodle.example.edu', 'frame-3', 'http://moodle.example.edu/auth',
              'http://moodle.example.edu/token', 'http://moodle.example.edu/jwks', '{d}'::text[], id
         from organisations where name = 'Demo Hospital'`,
    );
    const changed = await t.app.inject({
      method: 'GET',
      url: '/api/lti/frame-origins',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    assert.equal(changed.statusCode, 200);
    const after = changed.json<LtiFrameOrigins>();
    assert.notEqual(after.version, body.version);
    assert.ok(after.origins.includes('https://canvas.example.edu'));
    assert.ok(after.origins.includes('https://sso.canvas.example.edu'));
    assert.ok(
      !after.origins.some((o) => o.includes('moodle')),
      'plain http off loopback stays out',
    );

    await t.db.query("delete from lti_platforms where client_id in ('frame-2', 'frame-3')");
    const back = await t.app.inject({ method: 'GET', url: '/api/lti/frame-origins' });
    assert.equal(back.json<LtiFrameOrigins>().version, body.version);
  });

  test('on loopback http the cookies of the launch are HttpOnly, SameSite=None and Secure (browsers keep Secure cookies on localhost), so they come back inside a frame as on https', async () => {
    const { cookie, login, frameKey, to } = await launch(t, platform);
    const state = login.cookies.find((c) => c.name.startsWith('lti_state_'));
    assert.equal(state?.sameSite, 'None');
    assert.equal(state?.secure, true);
    assert.equal(cookie?.httpOnly, true);
    assert.equal(cookie?.sameSite, 'None');
    assert.equal(cookie?.secure, true);
    assert.equal(cookie?.path, '/api');
    assert.match(frameKey, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(to.searchParams.get('mode'), 'practice');
    // Only digests are stored.
    const stored = await t.db.query<{ cookie_hash: string; frame_key_hash: string }>(
      'select cookie_hash, frame_key_hash from lti_launch_browsers where launch_id = $1',
      [to.searchParams.get('launchId')],
    );
    assert.equal(stored.rowCount, 1);
    assert.notEqual(stored.rows[0]!.cookie_hash, cookie?.value);
    assert.notEqual(stored.rows[0]!.frame_key_hash, frameKey);
  });

  test("GET /api/lti/launch-window/{launchId} tells whether this browser holds the launch's cookie", async () => {
    const mine = await launch(t, platform);
    const other = await launch(t, platform);
    const status = (cookie?: string) =>
      t.app
        .inject({
          method: 'GET',
          url: `/api/lti/launch-window/${mine.launchId}`,
          headers: cookie ? { cookie: `${LAUNCH_BROWSER_COOKIE}=${cookie}` } : {},
        })
        .then((r) => r.json<{ cookie: boolean }>().cookie);
    assert.equal(await status(mine.cookie!.value), true);
    assert.equal(await status(), false, 'no cookie: a frame that could not keep it');
    assert.equal(await status(other.cookie!.value), false, "another launch's cookie");
    const bad = await t.app.inject({ method: 'GET', url: '/api/lti/launch-window/not-a-uuid' });
    assert.equal(bad.statusCode, 400);
  });

  const ticketFor = (launchId: string, frameKey: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/lti/launch-window/${launchId}/ticket`,
      payload: { frameKey },
    });
  const redeem = (ticket: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/lti/launch-window/redeem',
      headers: xsrfHeaders(),
      payload: { ticket },
    });

  test('a ticket continues the launch once in a new window, which then holds the cookie', async () => {
    const { launchId, frameKey, cookie: frameCookie } = await launch(t, platform);
    const issued = await ticketFor(launchId, frameKey);
    assert.equal(issued.statusCode, 201, issued.body);
    const { ticket, expiresInSeconds } = issued.json<LtiLaunchTicket>();
    assert.ok(expiresInSeconds <= 120);
    assert.notEqual(ticket, launchId);

    // What a cross-site page can send without a CORS preflight: a form or text, never JSON.
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const crossSite = await t.app.inject({
        method: 'POST',
        url: '/api/lti/launch-window/redeem',
        headers: { 'content-type': contentType },
        payload: contentType.startsWith('text') ? JSON.stringify({ ticket }) : `ticket=${ticket}`,
      });
      assert.ok(
        [400, 415].includes(crossSite.statusCode),
        `${contentType}: ${crossSite.statusCode}`,
      );
    }

    const redeemed = await redeem(ticket);
    assert.equal(redeemed.statusCode, 200, redeemed.body);
    const answer = redeemed.json<LtiLaunchTicketRedeemed>();
    assert.equal(answer.launchId, launchId);
    assert.equal(answer.location, `/lti/launch?launchId=${launchId}&mode=practice`);
    const windowCookie = cookieOf(redeemed);
    assert.equal(windowCookie?.httpOnly, true);
    assert.notEqual(windowCookie?.value, frameCookie?.value);
    const holds = await t.app.inject({
      method: 'GET',
      url: `/api/lti/launch-window/${launchId}`,
      headers: { cookie: `${LAUNCH_BROWSER_COOKIE}=${windowCookie!.value}` },
    });
    assert.equal(holds.json<{ cookie: boolean }>().cookie, true);

    const again = await redeem(ticket);
    assert.equal(again.statusCode, 400);
    assert.deepEqual(again.json(), { ticket: [LTI_FRAME_MESSAGES.ticket] });
  });

  test("a ticket needs the launch page's own key, fresh; it expires after two minutes", async () => {
    const one = await launch(t, platform);
    const two = await launch(t, platform);
    const wrongLaunch = await ticketFor(two.launchId, one.frameKey);
    assert.equal(wrongLaunch.statusCode, 400);
    assert.deepEqual(wrongLaunch.json(), { frameKey: [LTI_FRAME_MESSAGES.frameKey] });
    const made = await ticketFor(one.launchId, 'A'.repeat(43));
    assert.equal(made.statusCode, 400);
    const malformed = await ticketFor(one.launchId, 'short');
    assert.equal(malformed.statusCode, 400);
    assert.ok('frameKey' in malformed.json(), malformed.body);

    const { ticket } = (await ticketFor(one.launchId, one.frameKey)).json<LtiLaunchTicket>();
    const row = await t.db.query<{ s: number }>(
      `select extract(epoch from expires_at - now())::float8 as s from lti_launch_tickets
        where launch_id = $1 and used_at is null`,
      [one.launchId],
    );
    assert.ok(row.rows[0]!.s <= 120 && row.rows[0]!.s > 100);
    await t.db.query(
      "update lti_launch_tickets set expires_at = now() - interval '1 second' where launch_id = $1",
      [one.launchId],
    );
    assert.equal((await redeem(ticket)).statusCode, 400, 'expired');

    await t.db.query(
      "update lti_launch_browsers set created_at = now() - interval '11 minutes' where launch_id = $1",
      [two.launchId],
    );
    assert.equal((await ticketFor(two.launchId, two.frameKey)).statusCode, 400, 'stale frame key');
  });
});

describe('LTI launches on a plain-http portal off loopback', () => {
  let t: TestApp;
  let platform: TestPlatform;

  before(async () => {
    t = await buildTestApp({ portalUrl: 'http://portal.lan:8080' });
    platform = await createTestPlatform('http://127.0.0.1:8198', 'frame-lan');
    await registerPlatform(t.db, platform, 'http://127.0.0.1:8198/jwks', 'Demo Hospital');
  });
  after(async () => {
    await t.close();
  });

  test('the login state cookie is SameSite=Lax without Secure: a browser drops Secure cookies from such a host', async () => {
    const login = await t.app.inject({
      method: 'GET',
      url: `/api/lti/login?${loginQuery(platform, { target_link_uri: 'http://portal.lan:8080/api/lti/launch' })}`,
    });
    const state = login.cookies.find((c) => c.name.startsWith('lti_state_'));
    assert.equal(login.statusCode, 302, login.body);
    assert.ok(state, 'a state cookie');
    assert.equal(state.sameSite, 'Lax');
    assert.equal(state.secure, undefined);
    assert.equal(state.httpOnly, true);
  });
});

describe('LTI embedded launches on an https portal', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  const portalUrl = 'https://portal.example.org';

  before(async () => {
    t = await buildTestApp({ portalUrl });
    platform = await createTestPlatform('https://lms.frame.test', 'frame-https');
    jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  test('the cookies of the launch are SameSite=None; Secure, so they come back inside a frame', async () => {
    const login = await t.app.inject({
      method: 'GET',
      url: `/api/lti/login?${loginQuery(platform, { target_link_uri: `${portalUrl}/api/lti/launch` })}`,
    });
    assert.equal(login.statusCode, 302, login.body);
    const state = login.cookies.find((c) => c.name.startsWith('lti_state_'));
    assert.equal(state?.sameSite, 'None');
    assert.equal(state?.secure, true);
    assert.equal(state?.httpOnly, true);

    // A launch as recorded (the test platform's JWKS is on loopback, which an https portal's
    // outbound guard refuses), bound to a browser, continued in a new window.
    const launchId = randomUUID();
    await t.db.query(
      `insert into lti_launches (id, platform_id, deployment_id, message_type, platform_sub, user_id)
       select $1::uuid, p.id, 'deployment-1', 'LtiResourceLinkRequest', 'frame-https-user', u.id
         from lti_platforms p, users u where p.client_id = 'frame-https' and u.email = 'learner@demo.test'`,
      [launchId],
    );
    const { frameKey } = await createLtiLaunchBrowserRepository(t.db).bind(launchId);
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/lti/launch-window/${launchId}/ticket`,
      payload: { frameKey },
    });
    assert.equal(issued.statusCode, 201, issued.body);
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/api/lti/launch-window/redeem',
      headers: xsrfHeaders(),
      payload: { ticket: issued.json<LtiLaunchTicket>().ticket },
    });
    assert.equal(redeemed.statusCode, 200, redeemed.body);
    const cookie = cookieOf(redeemed);
    assert.equal(cookie?.sameSite, 'None');
    assert.equal(cookie?.secure, true);
    assert.equal(cookie?.httpOnly, true);

    const origins = (
      await t.app.inject({ method: 'GET', url: '/api/lti/frame-origins' })
    ).json<LtiFrameOrigins>();
    assert.ok(origins.origins.includes('https://lms.frame.test'));
    assert.ok(!origins.origins.some((o) => o.startsWith('http:')), 'no plain http behind https');
  });
});
