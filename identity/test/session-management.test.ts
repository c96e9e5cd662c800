import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import vm from 'node:vm';

import type { IdentityApp } from '../src/app';
import { BROWSER_STATE_COOKIE } from '../src/oidc/session-management';
import { Browser, formBody, formFrom } from './helpers/browser';
import { authorizeUrl, OIDC, PORTAL, pkcePair, SILENT_CHECK, signIn, startTestProvider } from './helpers/oidc';

const IFRAME_PATH = `${OIDC}/login-status-iframe.html`;

/** The login-status page's own script, run against a cookie string as a browser would. */
async function askIframe(html: string, { cookie, origin = PORTAL, message }: { cookie: string; origin?: string; message: unknown }): Promise<unknown> {
  const config = /<script type="application\/json" id="login-status-config">([\s\S]*?)<\/script>/.exec(html)?.[1];
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  assert.ok(config && script, 'the page carries its config and script');
  let jar = cookie;
  let listener: ((event: unknown) => void) | undefined;
  const document = {
    getElementById: (id: string) => (id === 'login-status-config' ? { textContent: config } : null),
    get cookie() {
      return jar;
    },
    // Enough of a cookie jar for the page's probe: set appends, max-age=0 removes.
    set cookie(line: string) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const kept = jar.split('; ').filter((part) => part && !part.startsWith(`${name}=`));
      jar = (/max-age=0/.test(line) ? kept : [...kept, pair]).join('; ');
    },
  };
  const window = { crypto: globalThis.crypto, addEventListener: (_type: string, fn: (event: unknown) => void) => (listener = fn) };
  vm.runInNewContext(script, { document, window, crypto: globalThis.crypto, TextEncoder, JSON, Array, Uint8Array, Promise });
  return new Promise((resolve) => {
    listener!({ origin, data: message, source: { postMessage: (answer: unknown) => resolve(answer) } });
    // An origin the page ignores gets no answer at all.
    setTimeout(() => resolve(undefined), 500);
  });
}

describe('OpenID Connect Session Management (login-status iframe)', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  const iframePage = async () => {
    const response = await fetch(`${app.issuer}${IFRAME_PATH}`);
    assert.equal(response.status, 200);
    return { response, html: await response.text() };
  };

  it('publishes check_session_iframe at Keycloak\'s path in discovery', async () => {
    const discovery = (await (await fetch(`${app.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(discovery.check_session_iframe, `${app.issuer}${IFRAME_PATH}`);
  });

  it('serves the iframe framable by the front-end origins only, running only its own script', async () => {
    const { response, html } = await iframePage();
    const csp = response.headers.get('content-security-policy') ?? '';
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'(;|$)`));
    assert.doesNotMatch(csp, /unsafe-inline|nonce-/);
    assert.match(csp, new RegExp(`frame-ancestors ${PORTAL} http://localhost:8088(;|$)`));
    assert.doesNotMatch(csp, /frame-ancestors[^;]*'self'/);
    assert.equal(response.headers.get('x-frame-options'), null);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const post = await fetch(`${app.issuer}${IFRAME_PATH}`, { method: 'POST' });
    assert.equal(post.status, 405);
  });

  it('answers session_state with the authorization response and keeps it while the session lives', async () => {
    const browser = new Browser(PORTAL);
    const { sessionState } = await signIn(app, browser);
    assert.match(sessionState ?? '', /^[0-9a-f]{64}\.[0-9a-f]+$/);
    const state = browser.cookie(BROWSER_STATE_COOKIE);
    assert.ok(state, 'the browser-state cookie is set');
    assert.equal(state.path, '/realms/main');
    const salt = sessionState!.split('.')[1]!;
    const expected = createHash('sha256').update(`frontend ${PORTAL} ${state.value} ${salt}`).digest('hex');
    assert.equal(sessionState, `${expected}.${salt}`);

    // The silent check of another tab: same session, same browser state, readable by scripts.
    const { challenge } = pkcePair();
    const silent = await browser.follow(authorizeUrl(app, { prompt: 'none', redirect_uri: SILENT_CHECK, code_challenge: challenge, code_challenge_method: 'S256' }));
    assert.equal(silent.status, 303);
    assert.ok(new URL(silent.headers.get('location')!).searchParams.get('session_state'));
    const setCookie = silent.headers.getSetCookie().find((line) => line.startsWith(`${BROWSER_STATE_COOKIE}=`));
    assert.ok(setCookie);
    assert.doesNotMatch(setCookie, /httponly/i);
    assert.match(setCookie, /samesite=lax/i);
    assert.equal(browser.cookie(BROWSER_STATE_COOKIE)?.value, state.value);

    const { html } = await iframePage();
    const cookie = `${BROWSER_STATE_COOKIE}=${state.value}`;
    assert.equal(await askIframe(html, { cookie, message: `frontend ${sessionState}` }), 'unchanged');
    // Another session (signed out and in again, or another user) has another browser state.
    assert.equal(await askIframe(html, { cookie: `${BROWSER_STATE_COOKIE}=other`, message: `frontend ${sessionState}` }), 'changed');
    assert.equal(await askIframe(html, { cookie: '', message: `frontend ${sessionState}` }), 'changed');
    // The hash binds the origin: a state handed to one portal origin is no good for another.
    assert.equal(await askIframe(html, { cookie, origin: 'http://localhost:8088', message: `frontend ${sessionState}` }), 'changed');
    assert.equal(await askIframe(html, { cookie, message: `portal-api ${sessionState}` }), 'error');
    assert.equal(await askIframe(html, { cookie, message: 'garbage' }), 'error');
    assert.equal(await askIframe(html, { cookie, origin: 'https://evil.example', message: `frontend ${sessionState}` }), undefined);
  });

  it('answers "error" when the iframe cannot read its cookies, rather than "changed"', async () => {
    const { html } = await iframePage();
    const config = /id="login-status-config">([\s\S]*?)<\/script>/.exec(html)![1]!;
    // A jar that drops every write, as a browser blocking third-party cookies does.
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    let listener: ((event: unknown) => void) | undefined;
    const document = { getElementById: () => ({ textContent: config }), get cookie() { return ''; }, set cookie(_line: string) {} };
    vm.runInNewContext(script, { document, window: { crypto: globalThis.crypto, addEventListener: (_t: string, fn: (event: unknown) => void) => (listener = fn) }, crypto: globalThis.crypto, TextEncoder, JSON, Array, Uint8Array, Promise });
    const answer = await new Promise((resolve) => listener!({ origin: PORTAL, data: 'frontend abc.def', source: { postMessage: resolve } }));
    assert.equal(answer, 'error');
  });

  it('clears the browser state at logout, so the iframe answers "changed"', async () => {
    const browser = new Browser(PORTAL);
    const { sessionState } = await signIn(app, browser);
    const logout = await browser.fetch(new URL(`${app.issuer}${OIDC}/logout`));
    const { action, fields } = formFrom(await logout.text());
    const done = await browser.follow(new URL(action, app.url), formBody({ ...fields, logout: 'yes' }));
    assert.match(await done.text(), /You have logged out/);
    assert.equal(browser.cookie(BROWSER_STATE_COOKIE), undefined);
    const { html } = await iframePage();
    assert.equal(await askIframe(html, { cookie: '', message: `frontend ${sessionState}` }), 'changed');
  });
});
