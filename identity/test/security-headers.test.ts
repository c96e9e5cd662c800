import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { Browser } from './helpers/browser';
import { admin, createUser, linkIn, outbox, SERVICE_SECRET, serviceToken } from './helpers/admin';
import { authorizeUrl, OIDC, PORTAL, pkcePair, startTestProvider } from './helpers/oidc';

/** What every answer of the provider must carry, whatever produced it. */
function assertHardened(response: Response, what: string): string {
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/, `${what}: default-src`);
  assert.match(csp, /object-src 'none'/, `${what}: object-src`);
  assert.match(csp, /base-uri 'none'/, `${what}: base-uri`);
  assert.match(csp, new RegExp(`frame-ancestors 'self' ${PORTAL}`), `${what}: only the portals may frame it`);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer', `${what}: referrer policy`);
  assert.equal(response.headers.get('strict-transport-security'), null, `${what}: no HSTS over http`);
  return csp;
}

describe('security headers on every identity answer', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
  });
  after(() => app.close());

  it('discovery, JWKS and health JSON', async () => {
    assertHardened(await fetch(`${app.issuer}/.well-known/openid-configuration`), 'discovery');
    assertHardened(await fetch(`${app.issuer}${OIDC}/certs`), 'JWKS');
    assertHardened(await fetch(`${app.url}/healthz`), 'healthz');
  });

  it('errors: an unknown path, a refused token request, a bad authorization request', async () => {
    const unknown = await fetch(`${app.url}/nowhere`);
    assert.equal(unknown.status, 404);
    assertHardened(unknown, 'unknown path');
    const token = await fetch(`${app.issuer}${OIDC}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=forged&client_id=frontend&redirect_uri=x',
    });
    assert.equal(token.status, 400);
    assertHardened(token, 'token endpoint error');
    const badRedirect = await fetch(authorizeUrl(app, { redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' });
    assert.equal(badRedirect.status, 400);
    assertHardened(badRedirect, 'authorization error page');
  });

  it('the admin API, the outbox and the set-password page', async () => {
    assertHardened(await admin(app, undefined, 'GET'), 'admin API refusal');
    const token = await serviceToken(app);
    assertHardened(await admin(app, token, 'GET'), 'admin API list');
    const id = await createUser(app, token, { email: 'headers@example.test', enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
    await admin(app, token, 'PUT', `/${id}/execute-actions-email`, ['UPDATE_PASSWORD']);
    assertHardened(await fetch(`${app.url}/dev/outbox.json`), 'outbox JSON');
    assert.match(assertHardened(await fetch(`${app.url}/dev/outbox`), 'outbox page'), /style-src 'nonce-[^']+'/);
    const [mail] = await outbox(app);
    const page = await fetch(linkIn(mail!));
    assert.equal(page.status, 200);
    assert.match(assertHardened(page, 'set-password page'), /form-action 'self' http:\/\/localhost:8080/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
  });

  it('the sign-in page keeps its own nonce policy, with the same closing directives', async () => {
    const { challenge } = pkcePair();
    const page = await new Browser().follow(authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256' }));
    assert.equal(page.status, 200);
    const csp = assertHardened(page, 'sign-in page');
    assert.match(csp, /script-src 'nonce-[^']+'/);
    assert.match(csp, /form-action 'self' http:\/\/localhost:8080/);
  });
});
