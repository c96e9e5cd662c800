import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { Browser, formBody, formFrom } from './helpers/browser';
import { authorizeUrl, CALLBACK, OIDC, PORTAL, pkcePair, signIn, startTestProvider, tokenRequest } from './helpers/oidc';

describe('what the provider refuses', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  it('shows "Invalid email or password." on a wrong password and keeps the email', async () => {
    const browser = new Browser(PORTAL);
    const { challenge } = pkcePair();
    const page = await browser.follow(authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256' }));
    const html = await page.text();
    assert.match(html, /Simulation Portal/);
    assert.match(html, /<label for="email">Email<\/label>/);
    assert.match(html, /<label for="password">Password<\/label>/);
    assert.match(html, /<button type="submit">Sign in<\/button>/);
    assert.equal(page.headers.get('x-frame-options'), null);

    const { action } = formFrom(html);
    const wrong = await browser.fetch(new URL(action, app.url), formBody({ email: 'learner@demo.test', password: 'nope' }));
    assert.equal(wrong.status, 200);
    const retry = await wrong.text();
    assert.match(retry, /<p id="sign-in-error" class="error" role="alert">Invalid email or password\.<\/p>/);
    assert.match(retry, /value="learner@demo\.test"/);

    const unknown = await browser.fetch(new URL(action, app.url), formBody({ email: 'nobody@demo.test', password: 'demo1234' }));
    assert.match(await unknown.text(), /Invalid email or password\./);

    // The same interaction still accepts the right password afterwards.
    const ok = await browser.follow(new URL(action, app.url), formBody({ email: 'learner@demo.test', password: 'demo1234' }));
    assert.equal(ok.status, 303);
    assert.ok(new URL(ok.headers.get('location')!).searchParams.get('code'));
  });

  it('refuses PKCE with the plain method', async () => {
    const response = await new Browser().fetch(authorizeUrl(app, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }));
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
  });

  it('refuses an authorization request without PKCE', async () => {
    const response = await new Browser().fetch(authorizeUrl(app, {}));
    const location = new URL(response.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.match(location.searchParams.get('error_description') ?? '', /PKCE/);
  });

  it('refuses a redirect URI that is not registered, without redirecting to it', async () => {
    for (const redirectUri of [
      'http://evil.test/auth/callback',
      `${PORTAL}/other`,
      'http://localhost:9999/auth/callback',
      // Only the launch pages' own return pages under /lti/, nothing else there.
      `${PORTAL}/lti/launch`,
      'http://evil.test/lti/auth/callback',
    ]) {
      const { challenge } = pkcePair();
      const response = await new Browser().fetch(
        authorizeUrl(app, { redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' }),
      );
      assert.equal(response.status, 400, redirectUri);
      assert.equal(response.headers.get('location'), null);
      assert.match(await response.text(), /redirect_uri/);
    }
  });

  it('refuses a code exchanged with the wrong verifier, and a code used twice', async () => {
    const { code } = await signIn(app, new Browser(PORTAL));
    const wrong = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: pkcePair().verifier });
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_grant');

    const { code: second, verifier: secondVerifier } = await signIn(app, new Browser(PORTAL));
    const fields = { grant_type: 'authorization_code', code: second, redirect_uri: CALLBACK, code_verifier: secondVerifier };
    assert.equal((await tokenRequest(app, fields)).status, 200);
    assert.equal((await tokenRequest(app, fields)).status, 400);
  });

  it('refuses token requests from an origin that is not a portal origin', async () => {
    const { code, verifier } = await signIn(app, new Browser(PORTAL));
    const response = await tokenRequest(
      app,
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
      'http://evil.test',
    );
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });

  it('refuses a post-logout redirect URI that is not registered', async () => {
    const logout = new URL(`${app.issuer}${OIDC}/logout`);
    logout.search = new URLSearchParams({ client_id: 'frontend', post_logout_redirect_uri: 'http://evil.test/' }).toString();
    const response = await fetch(logout, { redirect: 'manual' });
    assert.equal(response.status, 400);
  });

  it('shows an expiry page for an unknown sign-in interaction', async () => {
    const response = await fetch(`${app.issuer}/interaction/unknown`);
    assert.equal(response.status, 400);
    assert.match(await response.text(), /sign-in page has expired/);
  });
});
