import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LTI_MESSAGES } from '@portal/contract';
import { buildTestApp, type TestApp } from '../../helper';
import { LAUNCH_BROWSER_COOKIE } from '../../../src/lti/launch-browser-cookie';
import { createTestPlatform, serveJwks, type TestPlatform } from '../../lti/platform-fixtures';
import { loginQuery, registerPlatform } from '../../lti/lti-fixtures';
import { dataOf, storageCheck, storageLogin } from '../../lti/frame-launch';

/**
 * LTI Client Side postMessages (issue #22 point 2): the login keeps its state in the platform's
 * storage frame, and a launch whose state cookie is missing reads it back before it counts.
 */
describe('LTI login state in the platform storage (lti_storage_target)', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;

  before(async () => {
    t = await buildTestApp({ portalUrl: 'http://localhost:8080' });
    platform = await createTestPlatform('http://127.0.0.1:8198', 'storage-client');
    jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  const used = async (state: string) =>
    (
      await t.db.query<{ used: boolean }>(
        'select used_at is not null as used from lti_login_states where state = $1',
        [state],
      )
    ).rows[0]?.used;

  const launchForm = (state: string, idToken: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/lti/launch',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie: `lti_state_${state.slice(0, 16)}=${cookie}` } : {}),
      },
      payload: new URLSearchParams({ id_token: idToken, state }).toString(),
    });

  test('the login answers a page that puts the state into the platform frame, then goes on to the platform', async () => {
    const { login, state } = await storageLogin(t.app, platform);
    assert.match(String(login.headers['content-type']), /^text\/html/);
    const csp = String(login.headers['content-security-policy']);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/, 'one script, by its hash');
    assert.match(
      csp,
      /frame-ancestors http:\/\/127\.0\.0\.1:8198(;|$)/,
      "framed by the platform's origin only",
    );
    assert.equal(login.headers['x-frame-options'], undefined);
    assert.equal(login.headers['cache-control'], 'no-store');
    assert.equal(dataOf(login.body, 'target'), '_parent');
    assert.equal(
      dataOf(login.body, 'origin'),
      'http://127.0.0.1:8198',
      "the auth endpoint's origin",
    );
    assert.equal(dataOf(login.body, 'key'), `state_${state}`);
    assert.equal(dataOf(login.body, 'state'), state);
    const next = new URL(dataOf(login.body, 'next'));
    assert.equal(`${next.origin}${next.pathname}`, 'http://127.0.0.1:8198/auth');
    assert.ok(
      login.cookies.some((c) => c.name === `lti_state_${state.slice(0, 16)}`),
      'the cookie as well',
    );

    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/lti/login?${loginQuery(platform, { lti_storage_target: '"><script>' })}`,
    });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { lti_storage_target: [LTI_MESSAGES.storageTarget] });
  });

  test('a launch with its cookie goes on at once', async () => {
    const { state, idToken } = await storageLogin(t.app, platform);
    const res = await launchForm(state, idToken, state);
    assert.equal(res.statusCode, 302);
    assert.equal(new URL(res.headers.location as string).pathname, '/lti/launch');
  });

  test('without the cookie, a page reads the state back; the state it read admits the launch once', async () => {
    const { state, idToken } = await storageLogin(t.app, platform);
    const page = await launchForm(state, idToken);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(String(page.headers['content-security-policy']), /connect-src 'self'/);
    assert.equal(dataOf(page.body, 'key'), `state_${state}`);
    assert.equal(dataOf(page.body, 'token'), idToken);
    assert.equal(dataOf(page.body, 'verify'), 'http://localhost:8080/api/lti/launch/storage');
    assert.equal(await used(state), false, 'nothing spent before the second step');

    const checked = await t.app.inject(storageCheck(state, idToken, state));
    assert.equal(checked.statusCode, 200, checked.body);
    const to = new URL(checked.json<{ location: string }>().location);
    assert.equal(to.pathname, '/lti/launch');
    assert.match(to.hash, /^#frameKey=/);
    assert.ok(checked.cookies.some((c) => c.name === LAUNCH_BROWSER_COOKIE));

    const again = await t.app.inject(storageCheck(state, idToken, state));
    assert.equal(
      new URL(again.json<{ location: string }>().location).pathname,
      '/lti/error',
      'single use',
    );
  });

  test('a state the platform did not keep (or another) is refused, and the state is spent', async () => {
    for (const stored of [null, 'x'.repeat(43)]) {
      const { state, idToken } = await storageLogin(t.app, platform);
      const refused = await t.app.inject(storageCheck(state, idToken, stored));
      const to = new URL(refused.json<{ location: string }>().location);
      assert.equal(to.pathname, '/lti/error');
      assert.equal(to.searchParams.get('error'), 'INVALID_STATE');
      assert.equal(await used(state), true);
      const retry = await t.app.inject(storageCheck(state, idToken, state));
      assert.equal(new URL(retry.json<{ location: string }>().location).pathname, '/lti/error');
    }
  });

  test('the second step is no way around the cookie of a login without platform storage, nor a form post', async () => {
    const plain = await t.app.inject({
      method: 'GET',
      url: `/api/lti/login?${loginQuery(platform)}`,
    });
    const state = new URL(plain.headers.location as string).searchParams.get('state')!;
    const res = await t.app.inject(storageCheck(state, 'a.b.c', state));
    assert.equal(
      new URL(res.json<{ location: string }>().location).searchParams.get('error'),
      'INVALID_STATE',
    );

    const { state: s2, idToken } = await storageLogin(t.app, platform);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/lti/launch/storage',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ id_token: idToken, state: s2, stored_state: s2 }).toString(),
    });
    assert.equal(form.statusCode, 415, 'a cross-site form cannot make the second step');
    assert.equal(await used(s2), false);
  });
});
