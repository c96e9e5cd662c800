import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createLifecycle } from '@portal/service-kit';

import type { IdentityApp } from '../src/app';
import { Browser } from './helpers/browser';
import { PORTAL, signIn, signInForTokens, startTestProvider } from './helpers/oidc';

const TOKEN = 'identity-metrics-token-0123456789';

/** One sample of Prometheus text (0 when the series has no such line yet). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** /readyz and /metrics of the bundled provider (issue #24 points 2 and 3). */
describe('operations endpoints', () => {
  let app: IdentityApp;
  const lifecycle = createLifecycle();
  const scrape = async () => {
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    return res.text();
  };

  before(async () => {
    app = await startTestProvider({ metricsToken: TOKEN, lifecycle });
  });
  after(async () => {
    await app.close();
  });

  it('has no /metrics without a token, and refuses a wrong one', async () => {
    const without = await startTestProvider();
    try {
      assert.equal((await fetch(`${without.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 404);
    } finally {
      await without.close();
    }
    assert.equal((await fetch(`${app.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}!` } })).status, 401);
  });

  it('counts sign-ins, failures, lockouts and issued tokens', async () => {
    const before = await scrape();
    await signInForTokens(app, new Browser(PORTAL));
    const email = 'nobody-in-particular@demo.test';
    // Wrong passwords in quick succession lock the account (Keycloak's quick-login check and
    // failureFactor); from then on a try is refused without looking at the password.
    for (let i = 0; i < 6; i++) {
      await signIn(app, new Browser(PORTAL), { email, password: `wrong-${i}` }).catch(() => undefined);
    }
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    assert.equal(delta('identity_sign_ins_total', { outcome: 'succeeded' }), 1);
    const refused = delta('identity_sign_ins_total', { outcome: 'invalid_credentials' });
    const locked = delta('identity_sign_ins_total', { outcome: 'locked' });
    assert.ok(refused >= 1 && locked >= 1, `${refused} refused, ${locked} locked`);
    assert.equal(refused + locked, 6);
    assert.equal(delta('identity_tokens_issued_total', { grant_type: 'authorization_code' }), 1);
    assert.match(after, /http_request_duration_seconds_count\{[^}]*route="\/healthz"|# TYPE http_request_duration_seconds histogram/);
  });

  it('is ready until it drains', async () => {
    const ready = await fetch(`${app.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready' });
    lifecycle.drain();
    const draining = await fetch(`${app.url}/readyz`);
    assert.equal(draining.status, 503);
    assert.deepEqual(await draining.json(), { status: 'unavailable', reason: 'draining' });
    // Liveness is unchanged.
    assert.equal((await fetch(`${app.url}/healthz`)).status, 200);
  });
});
