import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';

import type { IdentityApp } from '../src/app';
import { Browser, formBody, formFrom } from './helpers/browser';
import { CALLBACK, OIDC, PORTAL, signIn, signInForTokens, startTestProvider, tokenRequest, type TokenSet } from './helpers/oidc';

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

  it('refreshes, and the same refresh token still works from a second tab', async () => {
    const tokens = await signInForTokens(app, new Browser(PORTAL));
    const first = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(first.status, 200);
    const refreshed = (await first.json()) as TokenSet;
    const { payload } = await jwtVerify(refreshed.access_token, jwks, { issuer: app.issuer, audience: 'account' });
    assert.equal(payload.sub, learner.sub);
    assert.equal(payload.email, learner.email);
    // No rotation: the answer carries the same refresh token, so a tab holding it is never stale.
    assert.equal(refreshed.refresh_token, tokens.refresh_token);

    // oidc-client-ts repeats the scope when it refreshes.
    const secondTab = await tokenRequest(app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      scope: 'openid profile email',
    });
    assert.equal(secondTab.status, 200);
    const again = (await secondTab.json()) as TokenSet;
    assert.ok(again.access_token);
    assert.ok(again.id_token);
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

  it('asks for confirmation when a logout request names no client', async () => {
    const browser = new Browser(PORTAL);
    await signIn(app, browser);
    const page = await browser.fetch(`${app.issuer}${OIDC}/logout`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<button[^>]*name="logout"[^>]*>Log out<\/button>/);
    assert.doesNotMatch(html, /f\.submit\(\)/);
  });
});
