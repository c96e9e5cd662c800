import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

import type { IdentityApp } from '../src/app';
import { Browser, formBody, formFrom } from './helpers/browser';
import { OIDC, PORTAL, PORTAL_SCOPE, signIn, signInForTokens, startTestProvider, tokenRequest, type TokenSet } from './helpers/oidc';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const learner = DEMO_ACCOUNTS.find((account) => account.email === 'learner@demo.test')!;
const educator = DEMO_ACCOUNTS.find((account) => account.role === 'educator')!;

interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** Claims that differ between any two token issues. */
const PER_ISSUE = new Set(['iat', 'exp', 'jti', 'sid', 'session_state', 'auth_time', 'at_hash']);
const stable = (payload: JWTPayload) => Object.fromEntries(Object.entries(payload).filter(([key]) => !PER_ISSUE.has(key)));

describe('device authorization grant (Keycloak paths)', () => {
  let app: IdentityApp;
  let jwks: ReturnType<typeof createRemoteJWKSet>;

  before(async () => {
    app = await startTestProvider({ accessTokenTtl: 120 });
    jwks = createRemoteJWKSet(new URL(`${app.issuer}${OIDC}/certs`));
  });
  after(() => app.close());

  /** What the headset does first. */
  async function authorizeDevice(scope = PORTAL_SCOPE): Promise<DeviceAuthorization> {
    const response = await fetch(`${app.issuer}${OIDC}/auth/device`, formBody({ client_id: 'frontend', scope }));
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as DeviceAuthorization;
  }

  const poll = (deviceCode: string) => tokenRequest(app, { grant_type: DEVICE_GRANT, device_code: deviceCode });

  /** Opens the code page (with `query`), and submits `userCode` in its form. */
  async function enterCode(browser: Browser, userCode: string, query = ''): Promise<Response> {
    const page = await browser.fetch(`${app.issuer}/device${query}`);
    assert.equal(page.status, 200);
    const { action, fields } = formFrom(await page.text());
    return browser.follow(new URL(action, app.url), formBody({ ...fields, user_code: userCode }));
  }

  async function signInOnPage(browser: Browser, page: Response, email = learner.email): Promise<Response> {
    const { action } = formFrom(await page.text());
    return browser.follow(new URL(action, app.url), formBody({ email, password: 'demo1234' }));
  }

  async function decide(browser: Browser, confirmPage: string, decision: 'allow' | 'deny'): Promise<Response> {
    const { action } = formFrom(confirmPage);
    return browser.follow(new URL(action, app.url), formBody({ decision }));
  }

  it('advertises the device endpoint and grant in discovery', async () => {
    const discovery = (await (await fetch(`${app.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(discovery.device_authorization_endpoint, `${app.issuer}${OIDC}/auth/device`);
    assert.ok((discovery.grant_types_supported as string[]).includes(DEVICE_GRANT));
  });

  it('hands out a device code and a Keycloak-style user code for the realm device page', async () => {
    const device = await authorizeDevice();
    assert.match(device.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(device.verification_uri, `${app.issuer}/device`);
    assert.equal(device.verification_uri_complete, `${app.issuer}/device?user_code=${device.user_code}`);
    assert.equal(device.expires_in, 600);
    assert.equal(device.interval, 5);
    assert.ok(device.device_code);
  });

  it('refuses a device request from an unknown client', async () => {
    const response = await fetch(`${app.issuer}${OIDC}/auth/device`, formBody({ client_id: 'nope', scope: 'openid' }));
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
  });

  it('answers authorization_pending while the user has not approved, and invalid_grant for an unknown code', async () => {
    const device = await authorizeDevice();
    const pending = await poll(device.device_code);
    assert.equal(pending.status, 400);
    assert.equal(((await pending.json()) as { error: string }).error, 'authorization_pending');

    const unknown = await poll('not-a-device-code');
    assert.equal(unknown.status, 400);
    assert.equal(((await unknown.json()) as { error: string }).error, 'invalid_grant');
  });

  it('signs a device in: code → sign-in → allow → tokens with the same claims as the code flow', async () => {
    const device = await authorizeDevice();
    const browser = new Browser();

    const codePage = await browser.fetch(device.verification_uri);
    assert.equal(codePage.status, 200);
    const csp = codePage.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'nonce-[^']+'/);
    assert.match(csp, /default-src 'none'/);
    assert.equal(codePage.headers.get('x-content-type-options'), 'nosniff');
    const html = await codePage.text();
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<label for="user_code">Code<\/label>/);
    assert.match(html, /<button type="submit">Continue<\/button>/);
    const { action, fields } = formFrom(html);
    assert.ok(fields.xsrf, 'the form carries the provider anti-forgery field');

    // Users type codes sloppily; lower case and no dash still match.
    const typed = device.user_code.toLowerCase().replace('-', '');
    const signInPage = await browser.follow(new URL(action, app.url), formBody({ ...fields, user_code: typed }));
    assert.equal(signInPage.status, 200);
    assert.match(await signInPage.clone().text(), /Sign in to your account/);

    const confirm = await signInOnPage(browser, signInPage);
    assert.equal(confirm.status, 200);
    const confirmHtml = await confirm.text();
    assert.match(confirmHtml, new RegExp(`Allow the device to sign in as ${learner.firstName} ${learner.lastName}\\?`));
    assert.match(confirmHtml, new RegExp(device.user_code));
    assert.match(confirmHtml, /<button[^>]*value="allow"[^>]*>Allow<\/button>/);
    assert.match(confirmHtml, /<button[^>]*value="deny"[^>]*>Deny<\/button>/);
    assert.match(confirm.headers.get('content-security-policy') ?? '', /frame-ancestors/);

    // Signed in but not yet allowed: the device still waits.
    assert.equal(((await (await poll(device.device_code)).json()) as { error: string }).error, 'authorization_pending');

    const success = await decide(browser, confirmHtml, 'allow');
    assert.equal(success.status, 200);
    assert.match(await success.text(), /Device login successful/);
    assert.match(success.headers.get('content-security-policy') ?? '', /default-src 'none'/);

    const response = await poll(device.device_code);
    assert.equal(response.status, 200, await response.clone().text());
    const tokens = (await response.json()) as TokenSet;
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.expires_in, 120);
    assert.ok(tokens.refresh_token);

    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: app.issuer, audience: 'account', algorithms: ['RS256'] });
    assert.equal(payload.sub, learner.sub);
    assert.equal(typeof payload.sid, 'string');
    assert.equal(payload.session_state, payload.sid);
    assert.deepEqual(payload.realm_access, { roles: ['default-roles-main', 'offline_access', 'uma_authorization', 'learner'] });
    const { payload: idToken } = await jwtVerify(tokens.id_token, jwks, { issuer: app.issuer, audience: 'frontend' });
    assert.equal(idToken.sid, payload.sid);

    const codeFlow = await signInForTokens(app, new Browser(PORTAL));
    const { payload: codeFlowAccess } = await jwtVerify(codeFlow.access_token, jwks, { issuer: app.issuer });
    const { payload: codeFlowId } = await jwtVerify(codeFlow.id_token, jwks, { issuer: app.issuer });
    assert.deepEqual(stable(payload), stable(codeFlowAccess));
    assert.deepEqual(stable(idToken), stable(codeFlowId));

    // The device keeps going with its refresh token.
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(refresh.status, 200);
    const { payload: refreshed } = await jwtVerify(((await refresh.json()) as TokenSet).access_token, jwks, { issuer: app.issuer });
    assert.equal(refreshed.sub, learner.sub);

    // A second use of the device code looks like theft: refused, and what it gave is revoked.
    const replay = await poll(device.device_code);
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant');
    const afterReplay = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(afterReplay.status, 400);
  });

  it('skips the sign-in when the browser is already signed in, but still asks to allow the device', async () => {
    const browser = new Browser(PORTAL);
    await signIn(app, browser, { email: educator.email });
    const device = await authorizeDevice();
    const confirm = await enterCode(browser, device.user_code);
    assert.equal(confirm.status, 200);
    const html = await confirm.text();
    assert.match(html, new RegExp(`Allow the device to sign in as ${educator.firstName} ${educator.lastName}\\?`));
    await decide(browser, html, 'allow');
    const tokens = (await (await poll(device.device_code)).json()) as TokenSet;
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: app.issuer });
    assert.equal(payload.sub, educator.sub);
  });

  it('pre-fills the code from the verification_uri_complete link', async () => {
    const device = await authorizeDevice();
    const page = await new Browser().fetch(device.verification_uri_complete);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, new RegExp(`id="user_code"[^>]*value="${device.user_code}"`));
    assert.doesNotMatch(html, /<script/);
  });

  it('shows an error for a wrong code and keeps what was typed', async () => {
    const browser = new Browser();
    const wrong = await enterCode(browser, 'ZZZZ-ZZZZ');
    assert.equal(wrong.status, 200);
    const html = await wrong.text();
    assert.match(html, /<p id="device-error" class="error" role="alert">The code is invalid\./);
    assert.match(html, /id="user_code"[^>]*value="ZZZZ-ZZZZ"[^>]*aria-invalid="true"/);

    // The re-rendered form works for the right code.
    const device = await authorizeDevice();
    const { action, fields } = formFrom(html);
    const next = await browser.follow(new URL(action, app.url), formBody({ ...fields, user_code: device.user_code }));
    assert.match(await next.text(), /Sign in to your account/);
  });

  it('asks for the code when none was entered, and refuses a code that was already used', async () => {
    const empty = await enterCode(new Browser(), '');
    assert.match(await empty.text(), /role="alert">Enter the code shown on your device\./);

    const device = await authorizeDevice();
    const first = new Browser();
    await enterCode(first, device.user_code);
    const again = await enterCode(new Browser(), device.user_code);
    assert.match(await again.text(), /role="alert">This code has already been used\./);
  });

  it('refuses a code form without the anti-forgery field', async () => {
    const device = await authorizeDevice();
    const browser = new Browser();
    await browser.fetch(`${app.issuer}/device`);
    const forged = await browser.fetch(`${app.issuer}/device`, formBody({ user_code: device.user_code, confirm: 'yes', xsrf: 'forged' }));
    assert.equal(forged.status, 400);
    assert.match(await forged.text(), /could not be completed/);
    assert.equal(((await (await poll(device.device_code)).json()) as { error: string }).error, 'authorization_pending');
  });

  it('tells the device access_denied when the user denies', async () => {
    const device = await authorizeDevice();
    const browser = new Browser();
    const signInPage = await enterCode(browser, device.user_code);
    const confirm = await signInOnPage(browser, signInPage);
    const denied = await decide(browser, await confirm.text(), 'deny');
    assert.equal(denied.status, 200);
    assert.match(await denied.text(), /The device sign-in was cancelled/);

    const response = await poll(device.device_code);
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: string }).error, 'access_denied');
  });

  it('speaks German throughout with kc_locale=de, and English for unsupported locales', async () => {
    const device = await authorizeDevice();
    const browser = new Browser();
    const page = await browser.fetch(`${app.issuer}/device?kc_locale=de`);
    assert.match(page.headers.getSetCookie().join('\n'), /KEYCLOAK_LOCALE=de; path=\/realms\/main;[^\n]*httponly/i);
    const html = await page.text();
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<h1>Geräteanmeldung<\/h1>/);
    assert.match(html, /<label for="user_code">Code<\/label>/);
    assert.match(html, /<button type="submit">Weiter<\/button>/);

    const { action, fields } = formFrom(html);
    const wrong = await browser.follow(new URL(action, app.url), formBody({ ...fields, user_code: 'ZZZZ-ZZZZ' }));
    const wrongHtml = await wrong.text();
    assert.match(wrongHtml, /Der Code ist ungültig\./);

    const retry = formFrom(wrongHtml);
    const signInPage = await browser.follow(new URL(retry.action, app.url), formBody({ ...retry.fields, user_code: device.user_code }));
    const signInHtml = await signInPage.text();
    assert.match(signInHtml, /<html lang="de">/);
    assert.match(signInHtml, /<label for="password">Passwort<\/label>/);
    assert.match(signInHtml, /<button type="submit">Anmelden<\/button>/);

    const confirm = await browser.follow(new URL(formFrom(signInHtml).action, app.url), formBody({ email: learner.email, password: 'demo1234' }));
    const confirmHtml = await confirm.text();
    assert.match(confirmHtml, new RegExp(`Darf sich das Gerät als ${learner.firstName} ${learner.lastName} anmelden\\?`));
    assert.match(confirmHtml, />Zulassen<\/button>/);
    assert.match(confirmHtml, />Ablehnen<\/button>/);
    const success = await decide(browser, confirmHtml, 'allow');
    assert.match(await success.text(), /Geräteanmeldung erfolgreich/);

    const french = await new Browser().fetch(`${app.issuer}/device?kc_locale=fr`);
    assert.deepEqual(french.headers.getSetCookie().filter((line) => line.startsWith('KEYCLOAK_LOCALE')), []);
    const frenchHtml = await french.text();
    assert.match(frenchHtml, /<html lang="en">/);
    assert.match(frenchHtml, /<button type="submit">Continue<\/button>/);
  });

  it('still requires PKCE for the authorization code flow', async () => {
    const url = new URL(`${app.issuer}${OIDC}/auth`);
    url.search = new URLSearchParams({ client_id: 'frontend', response_type: 'code', scope: 'openid', redirect_uri: `${PORTAL}/auth/callback` }).toString();
    const response = await new Browser().fetch(url);
    const location = new URL(response.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.match(location.searchParams.get('error_description') ?? '', /PKCE/);
  });
});
