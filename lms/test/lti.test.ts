import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { RunningLms } from '../src/index';
import { form, PORTAL_URL, SECRET, startTestLms, startTestTool, type TestTool } from './support';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

describe('the stand-in as an LTI 1.3 platform and Brightspace', () => {
  let tool: TestTool;
  let lms: RunningLms;
  before(async () => {
    tool = await startTestTool();
    lms = await startTestLms(tool);
  });
  after(async () => {
    await lms.close();
    await tool.close();
  });

  /** Signs in `userId`; answers the cookie header. */
  async function signIn(userId: string): Promise<string> {
    const response = await fetch(`${lms.url}/login`, { ...form({ user: userId }), redirect: 'manual' });
    assert.equal(response.status, 303);
    return response.headers.getSetCookie()[0]!.split(';')[0]!;
  }

  /** Presses a launch button; answers the tool login initiation parameters. */
  async function press(cookie: string, path: string): Promise<URLSearchParams> {
    const response = await fetch(`${lms.url}${path}`, { ...form({}), headers: { ...form({}).headers, cookie }, redirect: 'manual' });
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, `${PORTAL_URL}/api/lti/login`);
    return location.searchParams;
  }

  const authParams = (login: URLSearchParams, overrides: Record<string, string | null> = {}) => {
    const params: Record<string, string> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: 'portal-tool',
      redirect_uri: `${PORTAL_URL}/api/lti/launch`,
      login_hint: login.get('login_hint')!,
      lti_message_hint: login.get('lti_message_hint')!,
      state: randomBytes(16).toString('base64url'),
      nonce: randomBytes(16).toString('base64url'),
    };
    for (const [k, v] of Object.entries(overrides)) {
      if (v === null) delete params[k];
      else params[k] = v;
    }
    return params;
  };
  const auth = (cookie: string, params: Record<string, string>) =>
    fetch(`${lms.url}/lti/auth?${new URLSearchParams(params)}`, { headers: { cookie } });

  async function idTokenOf(response: Response): Promise<{ idToken: string; state: string; action: string }> {
    assert.equal(response.status, 200);
    const page = await response.text();
    return {
      action: unescape(/<form method="post" action="([^"]+)"/.exec(page)![1]!),
      idToken: /name="id_token" value="([^"]+)"/.exec(page)![1]!,
      state: unescape(/name="state" value="([^"]+)"/.exec(page)![1]!),
    };
  }

  it('signs a resource link launch whose claims verify with its JWKS', async () => {
    const cookie = await signIn('101');
    const login = await press(cookie, '/course/links/link-1/launch');
    assert.equal(login.get('iss'), lms.url);
    assert.equal(login.get('target_link_uri'), `${PORTAL_URL}/api/lti/launch`);
    const params = authParams(login);
    const { idToken, state, action } = await idTokenOf(await auth(cookie, params));
    assert.equal(action, `${PORTAL_URL}/api/lti/launch`);
    assert.equal(state, params.state);
    const { payload, protectedHeader } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${lms.url}/.well-known/jwks.json`)), {
      issuer: lms.url,
      audience: 'portal-tool',
      algorithms: ['RS256'],
    });
    assert.ok(protectedHeader.kid);
    assert.equal(payload.sub, '101');
    assert.deepEqual(payload['http://www.brightspace.com'], { user_id: 101, username: 'learner@demo.test' });
    assert.equal(payload.nonce, params.nonce);
    assert.equal(payload.email, 'learner@demo.test');
    assert.equal(payload.given_name, 'Lena');
    assert.equal(payload.family_name, 'Learner');
    assert.equal(payload[`${LTI}message_type`], 'LtiResourceLinkRequest');
    assert.equal(payload[`${LTI}version`], '1.3.0');
    assert.equal(payload[`${LTI}deployment_id`], 'demo-deployment');
    assert.deepEqual(payload[`${LTI}roles`], ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner']);
    assert.deepEqual(payload[`${LTI}resource_link`], { id: 'link-1', title: 'Radiography' });
    assert.equal((payload[`${LTI}context`] as { title: string }).title, 'Demo course');
    assert.deepEqual(payload[`${LTI}custom`], { configuration: 'radiography.lower-limb.knee', protocol: 'vmc-radiography', productId: '1', mode: 'Desktop' });
    const ags = payload['https://purl.imsglobal.org/spec/lti-ags/claim/endpoint'] as { scope: string[]; lineitem: string; lineitems: string };
    assert.equal(ags.lineitem, `${lms.url}/ags/lineitems/1`);
    assert.equal(ags.lineitems, `${lms.url}/ags/lineitems`);
    assert.ok(ags.scope.includes('https://purl.imsglobal.org/spec/lti-ags/scope/score'));
    assert.ok(payload.exp! - payload.iat! <= 300);
    // The message hint is single use: the same auth request again is refused.
    assert.equal((await auth(cookie, params)).status, 400);
  });

  it('refuses auth requests with a bad redirect_uri, client, response type or mode, scope, no nonce or state, or another user\'s login_hint', async () => {
    const cookie = await signIn('101');
    const cases: Array<[string, Record<string, string | null>, RegExp]> = [
      ['redirect_uri', { redirect_uri: 'https://attacker.example/api/lti/launch' }, /redirect_uri/],
      ['client', { client_id: 'someone-else' }, /client_id/],
      ['response_type', { response_type: 'code' }, /response_type/],
      ['response_mode', { response_mode: 'query' }, /response_mode/],
      ['scope', { scope: 'profile' }, /openid/],
      ['nonce', { nonce: null }, /nonce/],
      ['state', { state: null }, /state/],
      ['login_hint', { login_hint: '102' }, /login_hint/],
      // A client of ours, but Demo Brightspace College's: not the signed-in user's institution.
      ['institution', { client_id: 'portal-tool-brightspace' }, /institution/],
    ];
    for (const [name, overrides, message] of cases) {
      const login = await press(cookie, '/course/links/link-1/launch');
      const response = await auth(cookie, authParams(login, overrides));
      assert.equal(response.status, 400, name);
      const page = await response.text();
      assert.match(page, message, name);
      assert.doesNotMatch(page, /name="id_token"/, name);
    }
    // Nobody signed in: no token either.
    const login = await press(cookie, '/course/links/link-1/launch');
    assert.equal((await auth('lms_session=nobody', authParams(login))).status, 400);
  });

  it('only instructors start deep linking; the request carries the settings and no resource link', async () => {
    const learner = await signIn('101');
    assert.equal((await fetch(`${lms.url}/course/deep-link`, { ...form({}), headers: { ...form({}).headers, cookie: learner }, redirect: 'manual' })).status, 403);
    const educator = await signIn('102');
    const params = authParams(await press(educator, '/course/deep-link'));
    const { idToken } = await idTokenOf(await auth(educator, params));
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${lms.url}/.well-known/jwks.json`)), { issuer: lms.url, audience: 'portal-tool' });
    assert.equal(payload[`${LTI}message_type`], 'LtiDeepLinkingRequest');
    assert.deepEqual(payload[`${LTI}roles`], ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor']);
    assert.equal(payload[`${LTI}resource_link`], undefined);
    const settings = payload[`${DL}deep_linking_settings`] as Record<string, unknown>;
    assert.equal(settings.deep_link_return_url, `${lms.url}/lti/deep-link-return`);
    assert.deepEqual(settings.accept_types, ['ltiResourceLink']);
    assert.equal(settings.accept_multiple, false);
    assert.ok(Array.isArray(settings.accept_presentation_document_targets));
    assert.equal(typeof settings.data, 'string');
  });

  /** A deep linking request's `data`, as the tool gets it. */
  async function deepLinkData(): Promise<string> {
    const educator = await signIn('102');
    const { idToken } = await idTokenOf(await auth(educator, authParams(await press(educator, '/course/deep-link'))));
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${lms.url}/.well-known/jwks.json`)));
    return (payload[`${DL}deep_linking_settings`] as { data: string }).data;
  }

  const response = (data: string, overrides: JWTPayload = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: 'portal-tool',
      aud: lms.url,
      iat: now,
      exp: now + 300,
      nonce: randomBytes(12).toString('hex'),
      [`${LTI}message_type`]: 'LtiDeepLinkingResponse',
      [`${LTI}version`]: '1.3.0',
      [`${LTI}deployment_id`]: 'demo-deployment',
      [`${DL}data`]: data,
      [`${DL}content_items`]: [
        {
          type: 'ltiResourceLink',
          title: 'Knee, Desktop',
          custom: { configuration: 'radiography.lower-limb.knee', protocol: 'vmc-radiography', productId: '1', mode: 'Desktop' },
          lineItem: { scoreMaximum: 100, label: 'Knee', resourceId: 'radiography.lower-limb.knee', tag: 'simulation' },
        },
      ],
      ...overrides,
    };
  };
  const returnJwt = (jwt: string) => fetch(`${lms.url}/lti/deep-link-return`, { ...form({ JWT: jwt }), redirect: 'manual' });

  it('refuses deep linking responses signed with another key, for another audience or issuer, of another deployment or without our data', async () => {
    const data = await deepLinkData();
    const cases: Array<[string, Promise<string>]> = [
      ['stray key', tool.sign(response(data), { key: tool.strayKey })],
      ['wrong aud', tool.sign(response(data, { aud: 'https://other.example' }))],
      ['wrong iss', tool.sign(response(data, { iss: 'someone' }))],
      ['deployment', tool.sign(response(data, { [`${LTI}deployment_id`]: 'other' }))],
      ['message type', tool.sign(response(data, { [`${LTI}message_type`]: 'LtiResourceLinkRequest' }))],
      ['no nonce', tool.sign(response(data, { nonce: undefined }))],
      ['unknown data', tool.sign(response('made-up'))],
      ['HS256', tool.sign(response(data), { key: new TextEncoder().encode('k'.repeat(64)) as never, alg: 'HS256' })],
    ];
    const before = (await (await fetch(`${lms.url}/test/links`)).json()) as unknown[];
    for (const [name, jwt] of cases) {
      const answer = await returnJwt(await jwt);
      assert.equal(answer.status, 400, name);
    }
    assert.equal(((await (await fetch(`${lms.url}/test/links`)).json()) as unknown[]).length, before.length);
    assert.equal((await returnJwt('not.a.jwt')).status, 400);
  });

  it('adds the content item of a good deep linking response as a link with its line item, once', async () => {
    const data = await deepLinkData();
    const jwt = await tool.sign(response(data));
    const answer = await returnJwt(jwt);
    assert.equal(answer.status, 303);
    const added = new URL(answer.headers.get('location')!, lms.url).searchParams.get('added')!;
    const links = (await (await fetch(`${lms.url}/test/links`)).json()) as Array<{ id: string; title: string; custom: Record<string, string>; lineItemId: string }>;
    const link = links.find((l) => l.id === added)!;
    assert.equal(link.title, 'Knee, Desktop');
    assert.equal(link.custom.mode, 'Desktop');
    const items = (await (await fetch(`${lms.url}/test/scores`)).json()) as Array<{ lineItem: string; label: string; resourceLinkId: string }>;
    assert.ok(items.some((i) => i.resourceLinkId === added && i.label === 'Knee' && i.lineItem === `${lms.url}/ags/lineitems/${link.lineItemId}`));
    const educator = await signIn('102');
    const course = await (await fetch(`${lms.url}/course?added=${added}`, { headers: { cookie: educator } })).text();
    assert.match(course, /Launch Knee, Desktop/);
    assert.match(course, /Added “Knee, Desktop”/);
    // The same response again: data was single use.
    assert.equal((await returnJwt(jwt)).status, 400);
  });

  it('runs the Brightspace authorization code flow; whoami names the LTI sub', async () => {
    const redirectUri = `${PORTAL_URL}/api/brightspace-auth/callback`;
    const authUrl = `${lms.url}/d2l/oauth2/auth?${new URLSearchParams({ client_id: 'portal-brightspace', redirect_uri: redirectUri, response_type: 'code', scope: 'core:*:*', state: 'st-1' })}`;
    const anonymous = await fetch(authUrl, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location')!, /^\/login\?return=%2Fd2l%2Foauth2%2Fauth/);
    assert.equal((await fetch(authUrl.replace('portal.test', 'attacker.example'), { redirect: 'manual' })).status, 400);
    assert.equal((await fetch(authUrl.replace('portal-brightspace', 'other'), { redirect: 'manual' })).status, 400);

    const cookie = await signIn('106');
    const granted = await fetch(authUrl, { headers: { cookie }, redirect: 'manual' });
    assert.equal(granted.status, 302);
    const back = new URL(granted.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, redirectUri);
    assert.equal(back.searchParams.get('state'), 'st-1');
    const code = back.searchParams.get('code')!;

    const token = (fields: Record<string, string>) => fetch(`${lms.url}/d2l/oauth2/token`, form(fields));
    assert.equal((await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'portal-brightspace', client_secret: 'wrong-secret-0123456789' })).status, 401);
    const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'portal-brightspace', client_secret: SECRET });
    assert.equal(exchanged.status, 200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; token_type: string };
    assert.equal(tokens.token_type, 'Bearer');
    // A code is single use.
    assert.equal((await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'portal-brightspace', client_secret: SECRET })).status, 400);

    const whoami = await fetch(`${lms.url}/d2l/api/lp/1.43/users/whoami`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(whoami.status, 200);
    assert.deepEqual(await whoami.json(), { Identifier: '106', FirstName: 'Lena', LastName: 'Learner2', UniqueName: 'learner2@demo.test', ProfileIdentifier: 'profile-106' });
    assert.equal((await fetch(`${lms.url}/d2l/api/lp/1.43/users/whoami`, { headers: { authorization: 'Bearer nope' } })).status, 401);

    const basic = Buffer.from(`portal-brightspace:${SECRET}`).toString('base64');
    const refreshed = await fetch(`${lms.url}/d2l/oauth2/token`, { ...form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), headers: { ...form({}).headers, authorization: `Basic ${basic}` } });
    assert.equal(refreshed.status, 200);
  });

  it('signs in with e-mail and password, shows the gradebook by role, and sends security headers', async () => {
    const wrong = await fetch(`${lms.url}/login`, { ...form({ email: 'learner@demo.test', password: 'nope' }), redirect: 'manual' });
    assert.equal(wrong.status, 401);
    const right = await fetch(`${lms.url}/login`, { ...form({ email: 'educator@demo.test', password: 'demo1234', return: '//evil.example' }), redirect: 'manual' });
    assert.equal(right.status, 303);
    assert.equal(right.headers.get('location'), '/course');
    const cookie = right.headers.getSetCookie()[0]!.split(';')[0]!;
    const educatorBook = await fetch(`${lms.url}/gradebook`, { headers: { cookie } });
    const page = await educatorBook.text();
    assert.match(page, /Lena Learner2/);
    assert.match(page, /Otto Other/);
    const learnerBook = await (await fetch(`${lms.url}/gradebook`, { headers: { cookie: await signIn('101') } })).text();
    assert.doesNotMatch(learnerBook, /Lena Learner2/);
    const csp = educatorBook.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self' http:\/\/portal\.test/);
    assert.equal(educatorBook.headers.get('x-content-type-options'), 'nosniff');
    assert.equal((await fetch(`${lms.url}/healthz`)).status, 200);
  });
});
