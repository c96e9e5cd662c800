import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';

import type { IdentityApp } from '../src/app';
import { launchIdentityProvider } from '../src/broker/identity-providers';
import { admin, createUser, serviceToken, SERVICE_SECRET } from './helpers/admin';
import { Browser, formFrom } from './helpers/browser';
import { authorizeUrl, CALLBACK, pkcePair, startTestProvider, tokenRequest } from './helpers/oidc';

const CLIENT_ID = 'portal-identity';
const CLIENT_SECRET = 'broker-test-secret-0123456789';
/** A registered learning platform, whose frame an embedded launch's sign-in runs in. */
const PLATFORM = 'http://127.0.0.1:8100';

const frameAncestorsOf = (response: Response) =>
  /frame-ancestors ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1]?.split(' ') ?? [];

interface Issued {
  sub: string;
  nonce: string;
  challenge: string;
}

/**
 * An external OpenID provider as small as a test allows (the API's broker in miniature): its
 * authorization endpoint answers at once with a code for the subject named by `login_hint`
 * (or the error named by it), its token endpoint checks the client secret and PKCE and signs an
 * ID token with its own key (jose), its JWKS publishes that key.
 */
async function startExternalProvider() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'ext-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, Issued>();
  const seen: { auth: URLSearchParams[]; tokenForms: URLSearchParams[] } = { auth: [], tokenForms: [] };
  let issuer = '';
  let audience = CLIENT_ID;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.endsWith('/certs')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    if (url.pathname.endsWith('/auth')) {
      seen.auth.push(url.searchParams);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      const hint = url.searchParams.get('login_hint') ?? '';
      back.searchParams.set('state', url.searchParams.get('state')!);
      if (hint.startsWith('error:')) back.searchParams.set('error', hint.slice(6));
      else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, { sub: hint, nonce: url.searchParams.get('nonce')!, challenge: url.searchParams.get('code_challenge')! });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname.endsWith('/token')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.tokenForms.push(form);
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (form.get('client_secret') !== CLIENT_SECRET) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
          return;
        }
        if (!issued || createHash('sha256').update(verifier).digest('base64url') !== issued.challenge) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
          return;
        }
        void new SignJWT({ nonce: issued.nonce })
          .setProtectedHeader({ alg: 'RS256', kid: 'ext-1' })
          .setIssuer(issuer)
          .setAudience(audience)
          .setSubject(issued.sub)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey)
          .then((idToken) => {
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id_token: idToken, access_token: 'x', token_type: 'Bearer' }));
          });
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/broker`;
  return {
    issuer,
    seen,
    setAudience: (value: string) => (audience = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('identity brokering (kc_idp_hint, broker endpoint, federated identity links)', () => {
  let app: IdentityApp;
  let external: Awaited<ReturnType<typeof startExternalProvider>>;
  let token: string;
  let linkedId: string;

  before(async () => {
    external = await startExternalProvider();
    app = await startTestProvider({
      serviceClientSecret: SERVICE_SECRET,
      identityProviders: [launchIdentityProvider({ alias: 'lti', issuer: external.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })],
      platformFrameOrigins: { directive: () => [PLATFORM] },
    });
    token = await serviceToken(app);
    linkedId = await createUser(app, token, { email: 'brokered@platform.test', firstName: 'Bea', enabled: true });
  });
  after(async () => {
    await app.close();
    await external.close();
  });

  /** The portal's authorization request with the hint; answers the first response off the provider. */
  async function brokeredAuthorize(browser: Browser, loginHint: string, { challenge } = pkcePair()) {
    const start = await browser.follow(
      authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', kc_idp_hint: 'lti', login_hint: loginHint }),
    );
    assert.equal(start.status, 303, 'the interaction goes to the external provider, no sign-in form');
    const toExternal = new URL(start.headers.get('location')!);
    assert.equal(`${toExternal.origin}${toExternal.pathname}`, `${external.issuer}/auth`);
    assert.equal(toExternal.searchParams.get('client_id'), CLIENT_ID);
    assert.equal(toExternal.searchParams.get('redirect_uri'), `${app.issuer}/broker/lti/endpoint`);
    assert.equal(toExternal.searchParams.get('login_hint'), loginHint, 'passLoginHint');
    assert.equal(toExternal.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(toExternal.searchParams.get('nonce'));
    // The external provider answers at once (its browser binding is its own business).
    const answer = await fetch(toExternal, { redirect: 'manual' });
    return browser.follow(new URL(answer.headers.get('location')!));
  }

  test('admin API: link, list, 409 twice or for a taken identity, unlink, 404s', async () => {
    const other = await createUser(app, token, { email: 'other-linked@platform.test', enabled: true });
    assert.equal((await admin(app, token, 'POST', `/${linkedId}/federated-identity/lti`, { identityProvider: 'lti', userId: 'ext-sub-1', userName: 'ext-sub-1' })).status, 204);
    const list = await admin(app, token, 'GET', `/${linkedId}/federated-identity`);
    assert.equal(list.status, 200);
    assert.deepEqual(await list.json(), [{ identityProvider: 'lti', userId: 'ext-sub-1', userName: 'ext-sub-1' }]);
    const twice = await admin(app, token, 'POST', `/${linkedId}/federated-identity/lti`, { identityProvider: 'lti', userId: 'ext-sub-1', userName: 'x' });
    assert.equal(twice.status, 409);
    assert.equal(((await twice.json()) as { errorMessage: string }).errorMessage, 'User is already linked with provider');
    assert.equal((await admin(app, token, 'POST', `/${other}/federated-identity/lti`, { userId: 'ext-sub-1' })).status, 409, 'one account per identity');
    assert.equal((await admin(app, token, 'POST', `/${other}/federated-identity/nope`, { userId: 'ext-sub-2' })).status, 404, 'unknown provider');
    assert.equal((await admin(app, token, 'POST', `/${other}/federated-identity/lti`, { userName: 'no id' })).status, 400, 'userId is required');
    assert.equal((await admin(app, token, 'POST', `/00000000-0000-0000-0000-000000000000/federated-identity/lti`, { userId: 'z' })).status, 404);
    assert.equal((await admin(app, token, 'DELETE', `/${other}/federated-identity/lti`)).status, 404, 'Link not found');
    assert.equal((await admin(app, undefined, 'GET', `/${linkedId}/federated-identity`)).status, 401);

    assert.equal((await admin(app, token, 'POST', `/${other}/federated-identity/lti`, { userId: 'ext-sub-other' })).status, 204);
    assert.equal((await admin(app, token, 'DELETE', `/${other}/federated-identity/lti`)).status, 204);
    assert.deepEqual(await (await admin(app, token, 'GET', `/${other}/federated-identity`)).json(), []);
  });

  test('kc_idp_hint skips the form: the linked account is signed in and the portal gets a code', async () => {
    const browser = new Browser();
    const done = await brokeredAuthorize(browser, 'ext-sub-1');
    assert.equal(done.status, 303);
    const callback = new URL(done.headers.get('location')!);
    assert.equal(callback.origin, 'http://localhost:8080', 'back at the portal');
    assert.ok(callback.searchParams.get('code'));
    const form = external.seen.tokenForms.at(-1)!;
    assert.equal(form.get('client_id'), CLIENT_ID);
    assert.equal(form.get('redirect_uri'), `${app.issuer}/broker/lti/endpoint`);

    // The session is the linked account's: a silent authorization needs no provider.
    const { challenge } = pkcePair();
    const silent = await browser.follow(authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none' }));
    assert.ok(new URL(silent.headers.get('location')!).searchParams.get('code'));
  });

  test('an account without e-mail (a launched learner) is signed in by its link; its tokens carry no e-mail', async () => {
    const id = await createUser(app, token, { username: 'lti-no-mail', firstName: 'Lena', enabled: true });
    assert.equal((await admin(app, token, 'POST', `/${id}/federated-identity/lti`, { userId: 'ext-no-mail', userName: 'ext-no-mail' })).status, 204);
    const pkce = pkcePair();
    const done = await brokeredAuthorize(new Browser(), 'ext-no-mail', pkce);
    assert.equal(done.status, 303);
    const code = new URL(done.headers.get('location')!).searchParams.get('code');
    assert.ok(code);
    const tokens = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: pkce.verifier });
    assert.equal(tokens.status, 200);
    const claims = decodeJwt(((await tokens.json()) as { id_token: string }).id_token);
    assert.equal(claims.sub, id);
    assert.equal(claims.preferred_username, 'lti-no-mail');
    assert.equal('email' in claims, false, 'no empty e-mail claim');
  });

  test("an embedded launch: the brokered sign-in's cookies are SameSite=None; Secure (loopback), its pages may be framed by the platforms, other pages keep their own frame-ancestors", async () => {
    const browser = new Browser();
    const { challenge } = pkcePair();
    const start = await browser.fetch(
      authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', kc_idp_hint: 'lti', login_hint: 'nobody' }),
      { redirect: 'manual' },
    );
    assert.ok(frameAncestorsOf(start).includes(PLATFORM), "the brokered authorization's redirect may be framed too");
    const cookies = start.headers.getSetCookie();
    assert.ok(cookies.length > 0);
    for (const cookie of cookies) {
      assert.match(cookie, /; secure/i, cookie);
      // oidc-provider pairs each None cookie with a `.legacy` one without SameSite, for browsers that refuse None.
      if (!cookie.split('=')[0]!.includes('.legacy')) assert.match(cookie, /; samesite=none/i, cookie);
    }
    assert.ok(cookies.some((cookie) => /^_interaction=.*; samesite=none/i.test(cookie)));

    // Refused (no link): the page says why, inside the platform's frame.
    const refused = await brokeredAuthorize(new Browser(), 'not-linked-anywhere');
    assert.equal(refused.status, 200);
    assert.deepEqual(frameAncestorsOf(refused), ["'self'", 'http://localhost:8080', 'http://localhost:8088', PLATFORM]);
    const expired = await fetch(`${app.issuer}/broker/lti/endpoint?state=unknown&code=x`);
    assert.equal(expired.status, 400);
    assert.ok(frameAncestorsOf(expired).includes(PLATFORM), 'the broker endpoint answers inside the frame too');

    // The ordinary sign-in form is no page of a brokered sign-in: the platforms may not frame it.
    const form = await new Browser().follow(authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256' }));
    assert.equal(form.status, 200);
    assert.match(await form.text(), /type="password"/);
    assert.deepEqual(frameAncestorsOf(form), ["'self'", 'http://localhost:8080', 'http://localhost:8088']);
    const plain = await fetch(authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
    assert.ok(!frameAncestorsOf(plain).includes(PLATFORM), 'an authorization without the hint stays unframed by platforms');
    const outbox = await fetch(new URL('/healthz', app.issuer));
    assert.ok(!frameAncestorsOf(outbox).includes(PLATFORM));

    // The launch page's session check runs in an iframe inside the platform's frame: its
    // ancestors are the portal and the platform.
    const sessionCheck = await fetch(`${app.issuer}/protocol/openid-connect/login-status-iframe.html`);
    assert.equal(sessionCheck.status, 200);
    assert.deepEqual(frameAncestorsOf(sessionCheck), ['http://localhost:8080', 'http://localhost:8088', PLATFORM]);
    assert.equal(sessionCheck.headers.get('x-frame-options'), null);
  });

  test('an identity linked to no account is refused with a clear message; never matched by e-mail', async () => {
    const browser = new Browser();
    // The subject equals an account's e-mail and username: still no link, still refused.
    const page = await brokeredAuthorize(browser, 'brokered@platform.test');
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /not linked to an account here/);
    assert.ok(formFrom(html).action.endsWith('/login'), 'the password form stays as the way in');
  });

  test('refusals: the provider says access_denied, a wrong audience, an unknown state', async () => {
    const denied = await brokeredAuthorize(new Browser(), 'error:access_denied');
    assert.equal(denied.status, 200);
    assert.match(await denied.text(), /through your learning platform did not work/);

    external.setAudience('someone-else');
    try {
      const wrongAudience = await brokeredAuthorize(new Browser(), 'ext-sub-1');
      assert.match(await wrongAudience.text(), /through your learning platform did not work/);
    } finally {
      external.setAudience(CLIENT_ID);
    }

    const forged = await fetch(`${app.issuer}/broker/lti/endpoint?state=forged&code=x`, { redirect: 'manual' });
    assert.equal(forged.status, 400);
  });

  test('a disabled linked account is refused; German pages follow kc_locale', async () => {
    assert.equal((await admin(app, token, 'PUT', `/${linkedId}`, { enabled: false })).status, 204);
    try {
      const browser = new Browser();
      await browser.fetch(`${app.issuer}/device?kc_locale=de`);
      const page = await brokeredAuthorize(browser, 'ext-sub-1');
      assert.match(await page.text(), /ist deaktiviert/);
    } finally {
      assert.equal((await admin(app, token, 'PUT', `/${linkedId}`, { enabled: true })).status, 204);
    }
  });

  test('without the hint, or with an unknown alias, the sign-in form shows as before', async () => {
    for (const hint of [undefined, 'unknown']) {
      const { challenge } = pkcePair();
      const page = await new Browser().follow(
        authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', ...(hint ? { kc_idp_hint: hint } : {}) }),
      );
      assert.equal(page.status, 200);
      assert.ok(formFrom(await page.text()).action.endsWith('/login'));
    }
  });
});
