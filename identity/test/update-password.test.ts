import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { Browser, formBody, formFrom } from './helpers/browser';
import { authorizeUrl, CALLBACK, pkcePair, signIn, startTestProvider } from './helpers/oidc';

const PASSWORD = 'demo1234';

/** The authorization request the portal's "Change password" sends (Keycloak's AIA). */
function changePasswordRequest(app: IdentityApp, extra: Record<string, string> = {}): URL {
  const { challenge } = pkcePair();
  return authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', state: 'back', kc_action: 'UPDATE_PASSWORD', ...extra });
}

/** A browser signed in as `email`, on the change-password page. */
async function openForm(app: IdentityApp, email: string, extra: Record<string, string> = {}) {
  const browser = new Browser('http://localhost:8080');
  await signIn(app, browser, { email });
  const page = await browser.follow(changePasswordRequest(app, extra));
  assert.equal(page.status, 200);
  const html = await page.text();
  return { browser, html, action: new URL(formFrom(html).action, app.url) };
}

async function post(app: IdentityApp, browser: Browser, action: URL, fields: Record<string, string>) {
  const response = await browser.follow(action, formBody(fields));
  return { response, html: response.status === 303 ? '' : await response.text() };
}

/** The portal's callback the provider redirected to. */
function callbackOf(response: Response): URL {
  assert.equal(response.status, 303);
  const location = new URL(response.headers.get('location')!);
  assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
  return location;
}

async function canSignIn(app: IdentityApp, email: string, password: string): Promise<boolean> {
  return signIn(app, new Browser('http://localhost:8080'), { email, password }).then(
    () => true,
    () => false,
  );
}

describe('Change password (kc_action=UPDATE_PASSWORD)', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  it('shows the form for the signed-in user: current password, the new one twice, Cancel', async () => {
    const { html } = await openForm(app, 'educator@demo.test');
    assert.match(html, /<h1>Change password<\/h1>/);
    assert.match(html, /educator@demo\.test/);
    assert.match(html, /<label for="current">Current password<\/label>\s*<input id="current" name="current" type="password" autocomplete="current-password"/);
    assert.match(html, /<label for="password">New password<\/label>/);
    assert.match(html, /<label for="confirmation">New password again<\/label>/);
    assert.match(html, /<button type="submit" name="cancel" value="yes"[^>]*>Cancel<\/button>/);
  });

  it('speaks German when the portal asks in German (kc_locale, ui_locales)', async () => {
    const { html } = await openForm(app, 'educator@demo.test', { kc_locale: 'de' });
    assert.match(html, /<html lang="de"/);
    assert.match(html, /Aktuelles Passwort/);
    assert.match(html, /Neues Passwort wiederholen/);
    assert.match(html, /Abbrechen/);
    // What the portal sends: the standard ui_locales.
    const standard = await openForm(app, 'educator@demo.test', { ui_locales: 'de-DE en' });
    assert.match(standard.html, /<h1>Passwort ändern<\/h1>/);
  });

  it('names every problem under its field at once: wrong current password, policy, mismatch', async () => {
    const { browser, action } = await openForm(app, 'educator@demo.test');
    const wrong = await post(app, browser, action, { current: 'not-it-at-all', password: 'short', confirmation: 'short' });
    assert.equal(wrong.response.status, 400);
    assert.match(wrong.html, /<input id="current"[^>]*aria-invalid="true"[^>]*aria-describedby="current-error"/);
    assert.match(wrong.html, /<p id="current-error" class="field-error">The current password is not correct\.<\/p>/);
    assert.match(wrong.html, /<p id="password-error" class="field-error">Use at least 8 characters\.<\/p>/);

    const mismatch = await post(app, browser, action, { current: PASSWORD, password: 'a-good-new-one', confirmation: 'another-one' });
    assert.equal(mismatch.response.status, 400);
    assert.match(mismatch.html, /<p id="confirmation-error" class="field-error">The passwords do not match\.<\/p>/);
    assert.doesNotMatch(mismatch.html, /current-error/);

    const email = await post(app, browser, action, { current: PASSWORD, password: 'educator@demo.test', confirmation: 'educator@demo.test' });
    assert.match(email.html, /The password must not be your email address\./);
    const missing = await post(app, browser, action, { current: '', password: '', confirmation: '' });
    assert.match(missing.html, /Enter your current password\./);
    assert.match(missing.html, /Enter a password\./);
    assert.equal(await canSignIn(app, 'educator@demo.test', PASSWORD), true, 'nothing changed');
  });

  it('stores the new password and returns to the portal with kc_action_status=success', async () => {
    const { browser, action } = await openForm(app, 'learner@other.test');
    const done = await post(app, browser, action, { current: PASSWORD, password: 'brand-new-secret', confirmation: 'brand-new-secret' });
    const callback = callbackOf(done.response);
    assert.ok(callback.searchParams.get('code'));
    assert.equal(callback.searchParams.get('state'), 'back');
    assert.equal(callback.searchParams.get('kc_action_status'), 'success');
    assert.ok(callback.searchParams.get('session_state'));
    assert.equal(await canSignIn(app, 'learner@other.test', 'brand-new-secret'), true);
    assert.equal(await canSignIn(app, 'learner@other.test', PASSWORD), false);
  });

  it('Cancel returns to the portal with kc_action_status=cancelled and changes nothing', async () => {
    const { browser, action } = await openForm(app, 'orgadmin@demo.test');
    const done = await post(app, browser, action, { cancel: 'yes', current: '', password: 'ignored-secret', confirmation: 'ignored-secret' });
    const callback = callbackOf(done.response);
    assert.ok(callback.searchParams.get('code'));
    assert.equal(callback.searchParams.get('kc_action_status'), 'cancelled');
    assert.equal(await canSignIn(app, 'orgadmin@demo.test', PASSWORD), true);
  });

  it('ignores an unknown kc_action, as Keycloak does: the sign-in completes without a status', async () => {
    const browser = new Browser('http://localhost:8080');
    await signIn(app, browser, { email: 'educator@demo.test' });
    const done = await browser.follow(changePasswordRequest(app, { kc_action: 'DELETE_EVERYTHING' }));
    const callback = callbackOf(done);
    assert.ok(callback.searchParams.get('code'));
    assert.equal(callback.searchParams.get('kc_action_status'), null);
  });

  it('asks a user without a session to sign in first, then for the change', async () => {
    const browser = new Browser('http://localhost:8080');
    const page = await browser.follow(changePasswordRequest(app));
    const signInForm = formFrom(await page.text());
    const next = await browser.follow(new URL(signInForm.action, app.url), formBody({ email: 'educator@demo.test', password: PASSWORD }));
    assert.equal(next.status, 200);
    assert.match(await next.text(), /<h1>Change password<\/h1>/);
  });
});

describe('Change password: the current-password check is rate-limited as sign-in is', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  it('locks the account after quick or repeated wrong current passwords, for this form and for sign-in', async () => {
    const { browser, action } = await openForm(app, 'sysadmin@demo.test');
    const guess = (n: number) => post(app, browser, action, { current: `guess-${n}`, password: 'a-good-new-one', confirmation: 'a-good-new-one' });
    assert.equal((await guess(0)).response.status, 400);
    // Keycloak's quick-login check locks at once for guesses less than a second apart; on a busy
    // machine they are not, and the fifth wrong one locks (failureFactor). Either way, what comes
    // after five wrong guesses is refused, the right password too.
    const statuses: number[] = [];
    for (let n = 1; n < 5; n += 1) statuses.push((await guess(n)).response.status);
    assert.ok(statuses.every((status) => status === 400 || status === 429), `wrong guesses: ${statuses.join(', ')}`);
    const locked = await post(app, browser, action, { current: PASSWORD, password: 'a-good-new-one', confirmation: 'a-good-new-one' });
    assert.equal(locked.response.status, 429);
    assert.ok(Number(locked.response.headers.get('retry-after')) > 0);
    assert.match(locked.html, /Too many wrong passwords\. Try again in \d+ minutes?\./);
    assert.equal(await canSignIn(app, 'sysadmin@demo.test', PASSWORD), false, 'the same lockout as sign-in');
  });
});
