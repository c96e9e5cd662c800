import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_ACCOUNTS, DEMO_COHORT } from '@portal/contract/demo-accounts';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';

import type { IdentityApp } from '../src/app';
import { Browser, formBody, formFrom } from './helpers/browser';
import {
  authorizeUrl,
  CALLBACK,
  OIDC,
  pkcePair,
  PORTAL,
  SILENT_CHECK,
  signIn,
  signInForTokens,
  startTestProvider,
  tokenRequest,
  type TokenSet,
} from './helpers/oidc';

const learner = DEMO_ACCOUNTS.find((account) => account.email === 'learner@demo.test')!;
const sysAdmin = DEMO_ACCOUNTS.find((account) => account.role === 'sys admin')!;

describe('authorization code flow with PKCE', () => {
  let app: IdentityApp;
  let jwks: ReturnType<typeof createRemoteJWKSet>;

  before(async () => {
    app = await startTestProvider({ accessTokenTtl: 120 });
    jwks = createRemoteJWKSet(new URL(`${app.issuer}${OIDC}/certs`));
  });
  after(() => app.close());

  it('signs a demo user in and issues a Keycloak-shaped RS256 access token for the account audience', async () => {
    const browser = new Browser(PORTAL);
    const { code, state, verifier } = await signIn(app, browser);
    assert.ok(code);
    assert.ok(state);

    const response = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), PORTAL);
    const tokens = (await response.json()) as TokenSet;
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.expires_in, 120);
    assert.ok(tokens.refresh_token);

    assert.equal(decodeProtectedHeader(tokens.access_token).alg, 'RS256');
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: app.issuer, audience: 'account', algorithms: ['RS256'] });
    assert.equal(payload.sub, learner.sub);
    assert.equal(payload.azp, 'frontend');
    assert.equal(payload.typ, 'Bearer');
    assert.equal(payload.exp! - payload.iat!, 120);
    assert.equal(typeof payload.sid, 'string');
    assert.deepEqual(String(payload.scope).split(' ').sort(), ['email', 'openid', 'profile']);
    assert.equal(payload.email, learner.email);
    assert.equal(payload.given_name, learner.firstName);
    assert.equal(payload.family_name, learner.lastName);
    assert.equal(payload.preferred_username, learner.email);
    assert.deepEqual(payload.realm_access, { roles: ['default-roles-main', 'offline_access', 'uma_authorization', 'learner'] });
    assert.deepEqual((payload.resource_access as Record<string, { roles: string[] }>).frontend, { roles: ['learner'] });

    const { payload: idToken } = await jwtVerify(tokens.id_token, jwks, { issuer: app.issuer, audience: 'frontend' });
    assert.equal(idToken.sub, learner.sub);
    assert.equal(idToken.email, learner.email);
    assert.equal(idToken.given_name, learner.firstName);
    assert.equal(idToken.family_name, learner.lastName);
    assert.equal(idToken.name, `${learner.firstName} ${learner.lastName}`);
    assert.equal(idToken.sid, payload.sid);
  });

  it('puts the role of each demo account into realm and client roles', async () => {
    const tokens = await signInForTokens(app, new Browser(PORTAL), sysAdmin.email);
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: app.issuer });
    assert.ok((payload.realm_access as { roles: string[] }).roles.includes('sys admin'));
    assert.deepEqual((payload.resource_access as Record<string, { roles: string[] }>).frontend, { roles: ['sys admin'] });
  });

  it('signs in the demo activity\'s learners (non-ASCII names too) with the demo password, as learners with their fixed ids', async () => {
    const zoe = DEMO_COHORT.find((account) => account.firstName === 'Zoë')!;
    const jurgen = DEMO_COHORT.find((account) => account.firstName === 'Jürgen')!;
    for (const account of [zoe, jurgen]) {
      const tokens = await signInForTokens(app, new Browser(PORTAL), account.email);
      const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: app.issuer });
      assert.equal(payload.sub, account.sub);
      assert.deepEqual((payload.resource_access as Record<string, { roles: string[] }>).frontend, { roles: ['learner'] });
      const idToken = (await jwtVerify(tokens.id_token, jwks, { issuer: app.issuer })).payload;
      assert.equal(idToken.name, `${account.firstName} ${account.lastName}`);
    }
    const other = await signIn(app, new Browser(PORTAL), { email: zoe.email, password: 'not the demo password' }).catch((error: unknown) => error);
    assert.ok(other instanceof Error, 'a wrong password signs nobody in');
  });

  it('accepts the email in any letter case', async () => {
    const browser = new Browser(PORTAL);
    const { code } = await signIn(app, browser, { email: ' Learner@Demo.TEST ' });
    assert.ok(code);
  });

  it('still puts the user claims into both tokens when only openid is asked for, as Keycloak does', async () => {
    const browser = new Browser(PORTAL);
    const { code, verifier } = await signIn(app, browser, { scope: 'openid' });
    const response = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier });
    const tokens = (await response.json()) as TokenSet;
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: app.issuer });
    assert.equal(payload.scope, 'openid');
    assert.equal(payload.email, learner.email);
    const { payload: idToken } = await jwtVerify(tokens.id_token, jwks, { issuer: app.issuer });
    assert.equal(idToken.email, learner.email);
    assert.equal(idToken.preferred_username, learner.email);
  });

  it('rotates the refresh token on every use, within the lifetime of the first one', async () => {
    const tokens = await signInForTokens(app, new Browser(PORTAL));
    const introspect = async (token: string) =>
      (await (await fetch(`${app.issuer}${OIDC}/token/introspect`, formBody({ client_id: 'frontend', token }))).json()) as {
        active: boolean;
        exp: number;
      };
    const original = await introspect(tokens.refresh_token);
    // oidc-client-ts repeats the scope when it refreshes.
    const first = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'openid profile email' });
    assert.equal(first.status, 200);
    const refreshed = (await first.json()) as TokenSet;
    const { payload } = await jwtVerify(refreshed.access_token, jwks, { issuer: app.issuer, audience: 'account' });
    assert.equal(payload.sub, learner.sub);
    assert.equal(payload.email, learner.email);
    assert.ok(refreshed.id_token);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);

    // Seconds pass between refreshes, so a full fresh lifetime would show in `exp`.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const second = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshed.refresh_token });
    assert.equal(second.status, 200);
    const again = (await second.json()) as TokenSet;
    assert.notEqual(again.refresh_token, refreshed.refresh_token);

    // Rotation must not stretch the sign-in: the newest token ends when the first would have.
    const newest = await introspect(again.refresh_token);
    assert.equal(newest.active, true);
    assert.ok(newest.exp <= original.exp + 1, `${newest.exp} > ${original.exp}`);
    assert.equal((await introspect(tokens.refresh_token)).active, false);
  });

  it('refuses a rotated refresh token used again, and revokes what its grant gave since, as Keycloak does', async () => {
    const browser = new Browser(PORTAL);
    const tokens = await signInForTokens(app, browser);
    const rotated = (await (await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json()) as TokenSet;
    assert.ok(rotated.refresh_token);

    // The old token again: someone else holds a copy (a thief, or a tab that missed the rotation).
    const reuse = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(reuse.status, 400);
    assert.equal(((await reuse.json()) as { error: string }).error, 'invalid_grant');

    // Keycloak detaches the client session on reuse: the newer refresh token and the access tokens
    // of the grant stop working too, whoever holds them.
    const newer = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: rotated.refresh_token });
    assert.equal(newer.status, 400);
    assert.equal(((await newer.json()) as { error: string }).error, 'invalid_grant');
    const userinfo = await fetch(`${app.issuer}${OIDC}/userinfo`, { headers: { authorization: `Bearer ${rotated.access_token}` } });
    assert.equal(userinfo.status, 401);

    // The user's sign-in session itself survives, as Keycloak's user session does: the portal's
    // silent check gets a new code without the password.
    const { verifier, challenge } = pkcePair();
    const silent = await browser.follow(
      authorizeUrl(app, { prompt: 'none', redirect_uri: SILENT_CHECK, code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    const code = new URL(silent.headers.get('location')!).searchParams.get('code');
    assert.ok(code, silent.headers.get('location') ?? '');
    const fresh = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: SILENT_CHECK, code_verifier: verifier });
    assert.equal(fresh.status, 200);
    const renewed = (await fresh.json()) as TokenSet;
    assert.equal((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: renewed.refresh_token })).status, 200);
  });

  it('introspects and revokes a refresh token', async () => {
    const tokens = await signInForTokens(app, new Browser(PORTAL));
    const form = (fields: Record<string, string>) => formBody({ client_id: 'frontend', ...fields });
    const active = await fetch(`${app.issuer}${OIDC}/token/introspect`, form({ token: tokens.refresh_token }));
    assert.equal(((await active.json()) as { active: boolean }).active, true);

    const revoked = await fetch(`${app.issuer}${OIDC}/revoke`, form({ token: tokens.refresh_token, token_type_hint: 'refresh_token' }));
    assert.equal(revoked.status, 200);
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(refresh.status, 400);
  });

  it('answers userinfo for the access token, with CORS for the portal', async () => {
    const tokens = await signInForTokens(app, new Browser(PORTAL));
    const response = await fetch(`${app.issuer}${OIDC}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: PORTAL },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), PORTAL);
    assert.deepEqual(await response.json(), {
      sub: learner.sub,
      email: learner.email,
      email_verified: true,
      name: `${learner.firstName} ${learner.lastName}`,
      given_name: learner.firstName,
      family_name: learner.lastName,
      preferred_username: learner.email,
      locale: learner.language,
    });

    const preflight = await fetch(`${app.issuer}${OIDC}/userinfo`, {
      method: 'OPTIONS',
      headers: { origin: PORTAL, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  });

  it('refuses userinfo without a valid token', async () => {
    const missing = await fetch(`${app.issuer}${OIDC}/userinfo`);
    assert.equal(missing.status, 401);
    const forged = await fetch(`${app.issuer}${OIDC}/userinfo`, { headers: { authorization: 'Bearer not.a.token' } });
    assert.equal(forged.status, 401);
    assert.match(forged.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  it('signs in silently (prompt=none) while the session cookie lives, and allows framing by the portal', async () => {
    const browser = new Browser(PORTAL);
    await signIn(app, browser);
    const { createHash, randomBytes } = await import('node:crypto');
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${app.issuer}${OIDC}/auth`);
    url.search = new URLSearchParams({
      client_id: 'frontend',
      response_type: 'code',
      scope: 'openid',
      prompt: 'none',
      redirect_uri: `${PORTAL}/silent-check-sso.html`,
      state: 'silent',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const response = await browser.follow(url);
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('x-frame-options'), null);
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, `${PORTAL}/silent-check-sso.html`);
    assert.ok(location.searchParams.get('code'));

    const anonymous = await new Browser(PORTAL).follow(url);
    const refused = new URL(anonymous.headers.get('location')!);
    assert.equal(refused.searchParams.get('error'), 'login_required');
  });

  it("returns an embedded launch's sign-in to the portal's /lti/ return pages, which the platforms may frame", async () => {
    const browser = new Browser(PORTAL);
    await signIn(app, browser);
    const { createHash, randomBytes } = await import('node:crypto');
    for (const path of ['/lti/auth/callback', '/lti/silent-check-sso.html']) {
      const url = new URL(`${app.issuer}${OIDC}/auth`);
      url.search = new URLSearchParams({
        client_id: 'frontend',
        response_type: 'code',
        scope: 'openid',
        prompt: 'none',
        redirect_uri: `${PORTAL}${path}`,
        state: 'launch',
        code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      const response = await browser.follow(url);
      assert.equal(response.status, 303, path);
      const location = new URL(response.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, `${PORTAL}${path}`);
      assert.ok(location.searchParams.get('code'), path);
    }
  });

  it('logs out to the post-logout URI without a confirmation click, ending the session', async () => {
    const browser = new Browser(PORTAL);
    const tokens = await signInForTokens(app, browser);
    const logout = new URL(`${app.issuer}${OIDC}/logout`);
    logout.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${PORTAL}/logout`,
      state: 'bye',
    }).toString();

    const page = await browser.fetch(logout);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Logging you out/);
    assert.match(html, /f\.submit\(\)/);
    const { action, fields } = formFrom(html);
    // What the page's script does: submit the form with logout=yes.
    const done = await browser.fetch(new URL(action, app.url), formBody({ ...fields, logout: 'yes' }));
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${PORTAL}/logout?state=bye`);

    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(refresh.status, 400);
    assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_grant');
    const userinfo = await fetch(`${app.issuer}${OIDC}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(userinfo.status, 401);

    // A second tab logging out after the session is gone still lands on the post-logout URI.
    const again = await browser.fetch(logout);
    assert.equal(again.status, 200);
    const late = formFrom(await again.text());
    const redirected = await browser.fetch(new URL(late.action, app.url), formBody(late.fields));
    assert.equal(redirected.headers.get('location'), `${PORTAL}/logout?state=bye`);
  });

  /** GET the logout endpoint in `browser`; returns the page and its form. */
  async function logoutPageFor(browser: Browser, params: Record<string, string>) {
    const url = new URL(`${app.issuer}${OIDC}/logout`);
    url.search = new URLSearchParams(params).toString();
    const page = await browser.fetch(url);
    assert.equal(page.status, 200);
    const html = await page.text();
    return { html, form: formFrom(html) };
  }

  const stillSignedIn = async (tokens: TokenSet) =>
    (await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status === 200;

  it('asks for confirmation when a logout request names only a client, and "Stay signed in" changes nothing', async () => {
    const browser = new Browser(PORTAL);
    let tokens = await signInForTokens(app, browser);
    // Anyone can build this link: client_id is public.
    const { html, form } = await logoutPageFor(browser, { client_id: 'frontend', post_logout_redirect_uri: `${PORTAL}/logout` });
    assert.match(html, /Do you want to log out/);
    assert.match(html, /<button[^>]*name="logout"[^>]*>Log out<\/button>/);
    assert.doesNotMatch(html, /f\.submit\(\)/);
    // Staying is a plain link back to the portal; nothing is posted, so no token is revoked.
    assert.match(html, new RegExp(`<a class="button secondary" href="${PORTAL}/">Stay signed in</a>`));
    assert.ok(await stillSignedIn(tokens));
    tokens = (await (await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json()) as TokenSet;

    // The user's click logs out.
    const done = await browser.fetch(new URL(form.action, app.url), formBody({ ...form.fields, logout: 'yes' }));
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${PORTAL}/logout`);
    assert.equal(await stillSignedIn(tokens), false);
  });

  it('asks for confirmation when a logout request names no client at all', async () => {
    const browser = new Browser(PORTAL);
    await signIn(app, browser);
    const { html } = await logoutPageFor(browser, {});
    assert.match(html, /<button[^>]*name="logout"[^>]*>Log out<\/button>/);
    assert.match(html, /To stay signed in, close this page\./);
    assert.doesNotMatch(html, /f\.submit\(\)/);
  });

  it('asks for confirmation when the id_token_hint belongs to another session', async () => {
    // An attacker's own, validly signed ID token in a link must not log the victim out unasked.
    const attacker = await signInForTokens(app, new Browser(PORTAL), sysAdmin.email);
    const victim = new Browser(PORTAL);
    const victimTokens = await signInForTokens(app, victim);
    const { html } = await logoutPageFor(victim, {
      id_token_hint: attacker.id_token,
      post_logout_redirect_uri: `${PORTAL}/logout`,
    });
    assert.match(html, /Do you want to log out/);
    assert.doesNotMatch(html, /f\.submit\(\)/);
    assert.ok(await stillSignedIn(victimTokens));

    // The same user's ID token from another browser's session does not count either.
    const otherBrowser = await signInForTokens(app, new Browser(PORTAL));
    const sameUser = await logoutPageFor(victim, { id_token_hint: otherBrowser.id_token });
    assert.doesNotMatch(sameUser.html, /f\.submit\(\)/);
  });

  it('refuses an id_token_hint with a broken signature', async () => {
    const browser = new Browser(PORTAL);
    const tokens = await signInForTokens(app, browser);
    const [header, payload] = tokens.id_token.split('.');
    const url = new URL(`${app.issuer}${OIDC}/logout`);
    url.search = new URLSearchParams({ id_token_hint: `${header}.${payload}.${'A'.repeat(342)}` }).toString();
    const page = await browser.fetch(url);
    assert.equal(page.status, 400);
    assert.doesNotMatch(await page.text(), /f\.submit\(\)/);
    assert.ok(await stillSignedIn(tokens));
  });
});

describe('logout with an ID token older than its lifetime', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider({ accessTokenTtl: 1 });
  });
  after(() => app.close());

  it('still logs out without a click: the portal may hold an expired ID token of this session', async () => {
    const browser = new Browser(PORTAL);
    const tokens = await signInForTokens(app, browser);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const url = new URL(`${app.issuer}${OIDC}/logout`);
    url.search = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${PORTAL}/logout` }).toString();
    const page = await browser.fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /f\.submit\(\)/);
  });
});
