import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createRemoteJWKSet, jwtVerify } from 'jose';

import { type IdentityApp, startIdentityApp } from '../src/app';
import { admin, createUser, linkIn, outbox, type OutboxEntry, SERVICE_SECRET, serviceToken } from './helpers/admin';
import { Browser, formBody, formFrom } from './helpers/browser';
import {
  authorizeUrl,
  CALLBACK,
  OIDC,
  pkcePair,
  PORTAL,
  signIn,
  signInForTokens,
  startTestProvider,
  tokenRequest,
  type TokenSet,
} from './helpers/oidc';

const PASSWORD = 'a new password';

describe('invitation: execute-actions e-mail, set-password link, sign-in', () => {
  let app: IdentityApp;
  let token: string;

  before(async () => {
    app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET, productName: 'Sim Portal Test' });
    token = await serviceToken(app);
  });
  after(() => app.close());

  async function invite(id: string, query = `?lifespan=3600&client_id=frontend&redirect_uri=${encodeURIComponent(`${PORTAL}/`)}`) {
    const response = await admin(app, token, 'PUT', `/${id}/execute-actions-email${query}`, ['UPDATE_PASSWORD']);
    if (response.status !== 204) throw new Error(`invite refused: ${response.status} ${await response.text()}`);
    const [mail] = await outbox(app);
    return mail!;
  }

  async function openLink(browser: Browser, mail: OutboxEntry) {
    const page = await browser.fetch(linkIn(mail));
    const html = await page.text();
    return { page, html, form: page.status === 200 ? formFrom(html) : undefined };
  }

  /** The portal's login gate after the redirect: a fresh authorization request with PKCE. */
  async function portalSignsInSilently(browser: Browser): Promise<TokenSet> {
    const { verifier, challenge } = pkcePair();
    const response = await browser.follow(
      authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid profile email' }),
    );
    assert.equal(response.status, 303, 'straight back to the portal, no sign-in page');
    const callback = new URL(response.headers.get('location')!);
    assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
    const code = callback.searchParams.get('code');
    assert.ok(code, `no code in ${callback}`);
    const tokens = await tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.status, 200);
    return (await tokens.json()) as TokenSet;
  }

  it('invites a new user, who sets a password by the link, lands signed in on the portal and can sign in again', async () => {
    const email = 'new.learner@example.test';
    const id = await createUser(app, token, {
      email,
      firstName: 'Nina',
      lastName: 'New',
      enabled: true,
      requiredActions: ['UPDATE_PASSWORD'],
    });
    // No password yet and UPDATE_PASSWORD pending: no password at all signs this user in.
    for (const password of ['', 'demo1234', PASSWORD]) {
      await assert.rejects(signIn(app, new Browser(PORTAL), { email, password }), /sign-in did not redirect/);
    }

    const mail = await invite(id);
    assert.equal(mail.to, email);
    assert.equal(mail.subject, 'Set up your Sim Portal Test account');
    assert.match(mail.text, /^Hello Nina New,/);
    assert.match(mail.text, /valid for 1 hour/);
    assert.ok(!Number.isNaN(Date.parse(mail.sentAt)));
    const link = linkIn(mail);
    assert.equal(link.origin, new URL(app.issuer).origin);
    assert.equal(link.pathname, '/realms/main/login-actions/action-token');
    assert.ok(mail.html.includes(`href="${link.href.replace(/&/g, '&amp;')}"`), 'the HTML part links to the same place');

    const browser = new Browser(PORTAL);
    const { page, html, form } = await openLink(browser, mail);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'nonce-/);
    assert.match(page.headers.get('set-cookie') ?? '', /KC_ACTION_CSRF=[^;]+; Path=\/realms\/main\/login-actions; HttpOnly; SameSite=Strict/);
    assert.match(html, /<label for="password">New password<\/label>/);
    assert.match(html, /<label for="confirmation">Confirm password<\/label>/);
    assert.match(html, /new\.learner@example\.test/);
    assert.ok(form);
    const post = (fields: Record<string, string>) => browser.fetch(new URL(form.action, app.url), formBody({ ...form.fields, ...fields }));

    // The rules, each said under its field.
    const rules: [Record<string, string>, RegExp][] = [
      [{ password: 'short', confirmation: 'short' }, /id="password-error" class="field-error">Use at least 8 characters\./],
      [{ password: email.toUpperCase(), confirmation: email.toUpperCase() }, /id="password-error" class="field-error">The password must not be your email address\./],
      [{ password: PASSWORD, confirmation: `${PASSWORD}!` }, /id="confirmation-error" class="field-error">The passwords do not match\./],
      [{ password: '', confirmation: '' }, /id="password-error" class="field-error">Enter a password\./],
    ];
    for (const [fields, message] of rules) {
      const refused = await post(fields);
      assert.equal(refused.status, 400, JSON.stringify(fields));
      const body = await refused.text();
      assert.match(body, message);
      assert.match(body, /aria-invalid="true"/);
    }
    assert.equal(app.users.get(id)?.passwordHash, undefined, 'nothing was set by the refused posts');

    const done = await post({ password: PASSWORD, confirmation: PASSWORD });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${PORTAL}/`);
    assert.ok(browser.hasCookie('_session'), 'the provider signed the user in');

    const user = app.users.get(id)!;
    assert.deepEqual(user.requiredActions, [], 'UPDATE_PASSWORD is done');
    assert.equal(user.emailVerified, true);

    // The portal's login gate completes without asking for the password again.
    const tokens = await portalSignsInSilently(browser);
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${app.issuer}${OIDC}/certs`)), { issuer: app.issuer, audience: 'account' });
    assert.equal(payload.sub, id);
    assert.equal(payload.email, email);
    assert.equal(payload.name, 'Nina New');
    assert.equal(payload.azp, 'frontend');

    // The link is spent, also in another browser.
    const again = await openLink(new Browser(PORTAL), mail);
    assert.equal(again.page.status, 400);
    assert.match(again.html, /This link is invalid, has expired or was already used/);
    const replay = await post({ password: 'another password', confirmation: 'another password' });
    assert.equal(replay.status, 400);

    // Later, elsewhere: the normal sign-in page takes the new password, and only it.
    const later = await signInForTokens(app, new Browser(PORTAL), email, PASSWORD);
    assert.ok(later.access_token);
    await assert.rejects(signIn(app, new Browser(PORTAL), { email, password: 'another password' }), /sign-in did not redirect/);

    // Deleted: the account is gone from the provider, sign-in and refresh are refused.
    assert.equal((await admin(app, token, 'DELETE', `/${id}`)).status, 204);
    await assert.rejects(signIn(app, new Browser(PORTAL), { email, password: PASSWORD }), /sign-in did not redirect/);
    assert.equal((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: later.refresh_token })).status, 400);
  });

  it('refuses a form post without the page’s cookie (another site posting its own link) with 403', async () => {
    const id = await createUser(app, token, { email: 'csrf@example.test', enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
    const mail = await invite(id);
    const { form } = await openLink(new Browser(PORTAL), mail);
    const attacker = new Browser('https://attacker.example');
    const forged = await attacker.fetch(new URL(form!.action, app.url), formBody({ ...form!.fields, password: PASSWORD, confirmation: PASSWORD }));
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /This page has expired\. Open the link from your email again\./);
    assert.equal(app.users.get(id)?.passwordHash, undefined);
    assert.equal(attacker.hasCookie('_session'), false);
  });

  it('writes to users with locale de in German and shows them the German page', async () => {
    const id = await createUser(app, token, {
      email: 'deutsch@example.test',
      firstName: 'Dora',
      enabled: true,
      requiredActions: ['UPDATE_PASSWORD'],
      attributes: { locale: ['de'] },
    });
    const mail = await invite(id, '?client_id=frontend');
    assert.equal(mail.subject, 'Richten Sie Ihr Konto für Sim Portal Test ein');
    assert.match(mail.text, /^Hallo Dora,/);
    assert.match(mail.text, /ist 12 Stunden gültig/, "Keycloak's default lifespan: 12 hours");
    const browser = new Browser(PORTAL);
    const { html, form } = await openLink(browser, mail);
    assert.match(html, /<html lang="de">/);
    assert.match(html, /Neues Passwort/);
    const short = await browser.fetch(new URL(form!.action, app.url), formBody({ ...form!.fields, password: 'kurz', confirmation: 'kurz' }));
    assert.match(await short.text(), /Verwenden Sie mindestens 8 Zeichen\./);
    // Without a redirect_uri the user is told the password is set, and may sign in.
    const done = await browser.fetch(new URL(form!.action, app.url), formBody({ ...form!.fields, password: PASSWORD, confirmation: PASSWORD }));
    assert.equal(done.status, 200);
    assert.match(await done.text(), /Ihr Passwort ist festgelegt/);
  });

  it('refuses an expired link', async () => {
    const id = await createUser(app, token, { email: 'expired@example.test', enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
    const mail = await invite(id, '?lifespan=1');
    assert.match(mail.text, /valid for 1 minute/);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const { page } = await openLink(new Browser(PORTAL), mail);
    assert.equal(page.status, 400);
  });

  it('refuses execute-actions-email for unknown users, disabled users, foreign redirects and unknown actions', async () => {
    const before = (await outbox(app)).length;
    const id = await createUser(app, token, { email: 'refusals@example.test', enabled: true });
    const disabled = await createUser(app, token, { email: 'refusals.disabled@example.test' });
    const cases: [string, string, unknown, number, string | undefined][] = [
      ['unknown user', '/00000000-0000-4000-8000-000000000000/execute-actions-email', ['UPDATE_PASSWORD'], 404, undefined],
      ['disabled user', `/${disabled}/execute-actions-email`, ['UPDATE_PASSWORD'], 400, 'User is disabled'],
      ['foreign redirect', `/${id}/execute-actions-email?client_id=frontend&redirect_uri=${encodeURIComponent('https://attacker.example/')}`, ['UPDATE_PASSWORD'], 400, 'Invalid redirect uri.'],
      ['redirect without client', `/${id}/execute-actions-email?redirect_uri=${encodeURIComponent(`${PORTAL}/`)}`, ['UPDATE_PASSWORD'], 400, 'Client id missing'],
      ['unknown client', `/${id}/execute-actions-email?client_id=nobody`, ['UPDATE_PASSWORD'], 400, "Client doesn't exist"],
      ['unknown action', `/${id}/execute-actions-email`, ['CONFIGURE_TOTP'], 400, 'Provided invalid required actions'],
      ['no actions', `/${id}/execute-actions-email`, [], 400, undefined],
      ['lifespan 0', `/${id}/execute-actions-email?lifespan=0`, ['UPDATE_PASSWORD'], 400, undefined],
    ];
    for (const [what, path, body, status, message] of cases) {
      const response = await admin(app, token, 'PUT', path, body);
      assert.equal(response.status, status, what);
      if (message) assert.equal(((await response.json()) as { errorMessage: string }).errorMessage, message, what);
    }
    assert.equal((await outbox(app)).length, before, 'no mail went out');
  });
});

describe('set-password rate limit', () => {
  /** A new user's invitation, opened in their browser: the form and where it posts. */
  async function openInvitation(app: IdentityApp, email: string) {
    const token = await serviceToken(app);
    const id = await createUser(app, token, { email, enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
    assert.equal((await admin(app, token, 'PUT', `/${id}/execute-actions-email`, ['UPDATE_PASSWORD'])).status, 204);
    const [mail] = await outbox(app);
    const browser = new Browser(PORTAL);
    const form = formFrom(await (await browser.fetch(linkIn(mail!))).text());
    return { id, browser, form, action: new URL(form.action, app.url) };
  }

  it('refuses posts from an address after 100 refused ones in 15 minutes (429), like sign-in', async () => {
    // Its own provider: the counters of the other tests' refused posts must not count here.
    const app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
    try {
      const { id, browser, form, action } = await openInvitation(app, 'limited@example.test');
      for (let n = 0; n < 100; n += 1) {
        const bad = await browser.fetch(action, formBody({ ...form.fields, key: `forged.${n}`, password: PASSWORD, confirmation: PASSWORD }));
        assert.equal(bad.status, 400);
      }
      const blocked = await browser.fetch(action, formBody({ ...form.fields, password: PASSWORD, confirmation: PASSWORD }));
      assert.equal(blocked.status, 429);
      assert.ok(Number(blocked.headers.get('retry-after')) > 10 * 60);
      assert.match(await blocked.text(), /Too many failed attempts\. Try again in 1[0-5] minutes\./);
      assert.equal(app.users.get(id)?.passwordHash, undefined);
    } finally {
      await app.close();
    }
  });

  it("locks a link's account after forged posts (the form without its cookie), told when to try again", async () => {
    const app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
    try {
      const { id, browser: owner, form, action } = await openInvitation(app, 'forged@example.test');
      // Another browser posts the real form's fields without its cookie, five times: refused,
      // then (five failures, or two within a second) the account is locked.
      for (let n = 0; n < 5; n += 1) {
        const forged = await new Browser(PORTAL).fetch(action, formBody({ ...form.fields, password: PASSWORD, confirmation: PASSWORD }));
        assert.ok(n === 0 ? forged.status === 403 : [403, 429].includes(forged.status), `post ${n + 1}: ${forged.status}`);
      }
      const blocked = await owner.fetch(action, formBody({ ...form.fields, password: PASSWORD, confirmation: PASSWORD }));
      assert.equal(blocked.status, 429);
      const retryAfter = Number(blocked.headers.get('retry-after'));
      assert.ok(retryAfter > 0 && retryAfter <= 60, String(retryAfter));
      assert.match(await blocked.text(), /Too many failed attempts\. Try again in 1 minute\./);
      assert.equal(app.users.get(id)?.passwordHash, undefined);
    } finally {
      await app.close();
    }
  });
});

describe('the local outbox only in development mode', () => {
  it('does not start outside development mode without SMTP', async () => {
    await assert.rejects(startIdentityApp({ port: 0, serviceClientSecret: SERVICE_SECRET }), /needs an SMTP server/);
  });

  it('has no /dev/outbox with SMTP configured, whatever the mode', async () => {
    // Nothing is sent in this test: nodemailer connects only when a mail goes out.
    const app = await startIdentityApp({ port: 0, smtpUrl: 'smtp://127.0.0.1:9', devMode: true, seedDemo: true });
    try {
      assert.equal(app.outbox, undefined);
      assert.equal((await fetch(`${app.url}/dev/outbox`)).status, 404);
      assert.equal((await fetch(`${app.url}/dev/outbox.json`)).status, 404);
    } finally {
      await app.close();
    }
  });
});

describe('the local outbox', () => {
  it('lists mails newest first as JSON and as a page with clickable links and a nonce policy', async () => {
    const app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
    try {
      const token = await serviceToken(app);
      assert.deepEqual(await outbox(app), []);
      for (const email of ['first@example.test', 'second@example.test']) {
        const id = await createUser(app, token, { email, enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
        assert.equal((await admin(app, token, 'PUT', `/${id}/execute-actions-email`, ['UPDATE_PASSWORD'])).status, 204);
      }
      const mails = await outbox(app);
      assert.deepEqual(mails.map((mail) => mail.to), ['second@example.test', 'first@example.test']);
      assert.deepEqual(Object.keys(mails[0]!).sort(), ['html', 'sentAt', 'subject', 'text', 'to']);

      const page = await fetch(`${app.url}/dev/outbox`);
      assert.equal(page.status, 200);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /style-src 'nonce-/);
      const html = await page.text();
      assert.match(html, /second@example\.test[\s\S]*first@example\.test/);
      assert.ok(html.includes(`<a href="${linkIn(mails[0]!).href.replace(/&/g, '&amp;')}">`));
      assert.equal((await fetch(`${app.url}/dev/outbox.json`, { method: 'POST' })).status, 405);
    } finally {
      await app.close();
    }
  });

  it('does not exist when mails go out over SMTP', async () => {
    // Nothing listens there; no mail is sent in this test, the transport only connects on send.
    const app = await startTestProvider({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      assert.equal((await fetch(`${app.url}/dev/outbox.json`)).status, 404);
      assert.equal((await fetch(`${app.url}/dev/outbox`)).status, 404);
      assert.equal(app.outbox, undefined);
    } finally {
      await app.close();
    }
  });
});
