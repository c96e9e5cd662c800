import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { OIDC, PORTAL, startTestProvider } from './helpers/oidc';

describe('Keycloak-compatible endpoints', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  it('publishes discovery at the realm with Keycloak endpoint paths, readable cross-origin', async () => {
    const response = await fetch(`${app.issuer}/.well-known/openid-configuration`, { headers: { origin: PORTAL } });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('access-control-allow-origin'));
    const discovery = (await response.json()) as Record<string, unknown>;
    const base = `${app.issuer}${OIDC}`;
    assert.equal(discovery.issuer, app.issuer);
    assert.equal(discovery.authorization_endpoint, `${base}/auth`);
    assert.equal(discovery.token_endpoint, `${base}/token`);
    assert.equal(discovery.end_session_endpoint, `${base}/logout`);
    assert.equal(discovery.userinfo_endpoint, `${base}/userinfo`);
    assert.equal(discovery.jwks_uri, `${base}/certs`);
    assert.equal(discovery.revocation_endpoint, `${base}/revoke`);
    assert.equal(discovery.introspection_endpoint, `${base}/token/introspect`);
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
  });

  it('serves the public signing key only', async () => {
    const response = await fetch(`${app.issuer}${OIDC}/certs`, { headers: { origin: PORTAL } });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('access-control-allow-origin'));
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    assert.equal(keys.length, 1);
    assert.equal(keys[0]!.kty, 'RSA');
    assert.equal(keys[0]!.alg, 'RS256');
    assert.equal(keys[0]!.d, undefined);
  });

  it('answers /healthz', async () => {
    const response = await fetch(`${app.url}/healthz`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok' });
  });

  it('answers 404 outside the realm', async () => {
    assert.equal((await fetch(`${app.url}/realms/other/.well-known/openid-configuration`)).status, 404);
  });
});
