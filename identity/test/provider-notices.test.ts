import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { introspectionAllowed } from '../src/oidc/provider';
import { Browser, formBody } from './helpers/browser';
import { OIDC, PORTAL, signInForTokens, startTestProvider } from './helpers/oidc';

describe('introspection policy', () => {
  const portal = { oidc: { client: { clientId: 'frontend' } } };

  it('lets a public client learn about its own tokens only', () => {
    assert.equal(introspectionAllowed(portal, { clientAuthMethod: 'none' }, { clientId: 'frontend' }), true);
    assert.equal(introspectionAllowed(portal, { clientAuthMethod: 'none' }, { clientId: 'portal-api' }), false);
    assert.equal(introspectionAllowed(portal, { clientAuthMethod: 'none' }, {}), false);
  });

  it('lets a client that authenticated learn about any token of the realm', () => {
    const api = { oidc: { client: { clientId: 'portal-api' } } };
    assert.equal(introspectionAllowed(api, { clientAuthMethod: 'client_secret_basic' }, { clientId: 'frontend' }), true);
  });
});

// oidc-provider prints a notice on standard output the first time it falls back to one of its
// defaults. Output there sits between the test runner's reports of a file, which node 20's runner
// could not always read past (docs/conventions.md, "Tests"); this file starts its own process, so
// the library has printed nothing before it.
describe('the provider prints no notices of its defaults', () => {
  let app: IdentityApp;
  const printed: string[] = [];
  const originals = { info: console.info, warn: console.warn, log: console.log };

  before(async () => {
    app = await startTestProvider();
    for (const name of ['info', 'warn', 'log'] as const) {
      console[name] = (...args: unknown[]) => printed.push(args.map(String).join(' '));
    }
  });
  after(async () => {
    Object.assign(console, originals);
    await app.close();
  });

  it('introspects and revokes a refresh token without a notice', async () => {
    const tokens = await signInForTokens(app, new Browser(PORTAL));
    const form = (fields: Record<string, string>) => formBody({ client_id: 'frontend', ...fields });
    const active = await fetch(`${app.issuer}${OIDC}/token/introspect`, form({ token: tokens.refresh_token }));
    assert.equal(((await active.json()) as { active: boolean }).active, true);
    const revoked = await fetch(`${app.issuer}${OIDC}/revoke`, form({ token: tokens.refresh_token }));
    assert.equal(revoked.status, 200);
    assert.deepEqual(printed.filter((line) => line.includes('oidc-provider')), []);
  });
});
