import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { Browser, formBody, formFrom } from './helpers/browser';
import { authorizeUrl, OIDC, PORTAL, pkcePair, startTestProvider } from './helpers/oidc';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A form post from another client address: every 127.x address is loopback on Linux, so the
 * provider on 127.0.0.1 sees the request coming from `localAddress`.
 */
function postFrom(localAddress: string, browser: Browser, url: URL, fields: Record<string, string>): Promise<Answer> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          cookie: browser.cookieHeader(url),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Nonces and interaction ids differ per page; what is left is what a user (or attacker) sees. */
const comparable = (html: string) =>
  html.replace(/nonce(=|-)"?[A-Za-z0-9+/=_-]+/g, 'nonce').replace(/\/interaction\/[A-Za-z0-9_-]+/g, '/interaction/x');

describe('sign-in limits (per account with growing waits, 100 failures per address in 15 minutes)', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  /** Opens a sign-in page in a new browser; returns where its form posts. */
  async function signInForm(locale?: string) {
    const browser = new Browser(PORTAL);
    const { challenge } = pkcePair();
    const params: Record<string, string> = { code_challenge: challenge, code_challenge_method: 'S256' };
    if (locale) params.kc_locale = locale;
    const page = await browser.follow(authorizeUrl(app, params));
    assert.equal(page.status, 200);
    return { browser, action: new URL(formFrom(await page.text()).action, app.url) };
  }

  async function signIn(address: string, email: string, password: string, locale?: string): Promise<Answer> {
    const { browser, action } = await signInForm(locale);
    return postFrom(address, browser, action, { email, password });
  }

  /** Counts the password checks (each one a scrypt hash) the provider makes from now on. */
  function countPasswordChecks(): { readonly count: number; restore(): void } {
    const original = app.users.verifyCredentials;
    const counter = { count: 0, restore: () => (app.users.verifyCredentials = original) };
    app.users.verifyCredentials = (email, password) => {
      counter.count += 1;
      return original(email, password);
    };
    return counter;
  }

  it("12 wrong passwords for one account lock that account only: the next account at the same address signs in", async () => {
    const answers: Answer[] = [];
    for (let n = 0; n < 12; n += 1) answers.push(await signIn('127.0.0.2', 'educator@demo.test', `wrong-${n}`));
    assert.equal(answers[0]!.status, 200);
    assert.match(answers[0]!.body, /Invalid email or password\./);
    // A script's pace (two failures within a second) locks the account at once, as Keycloak does.
    const locked = answers.at(-1)!;
    assert.equal(locked.status, 429);

    // The case: a classroom behind one address. Another account signs in from there.
    const other = await signIn('127.0.0.2', 'learner@demo.test', 'demo1234');
    assert.equal(other.status, 303, 'another account at the same address is not locked out');

    // The locked account is told when it may try again, even with the right password, from anywhere.
    const owner = await signIn('127.0.0.3', 'Educator@Demo.test', 'demo1234');
    assert.equal(owner.status, 429);
    const retryAfter = Number(owner.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, String(retryAfter));
    assert.match(
      owner.body,
      /role="alert">Too many failed sign-in attempts for this account\. It is locked for now: try again in 1 minute\.<\/p>/,
    );
    assert.match(owner.body, /<form method="post"/, 'the form stays for the next try');
    assert.match(String(owner.headers['content-security-policy']), /default-src 'none'/);
  });

  it('says so in German on German pages', async () => {
    // Locked since the test before.
    const blocked = await signIn('127.0.0.12', 'educator@demo.test', 'demo1234', 'de');
    assert.equal(blocked.status, 429);
    assert.match(blocked.body, /<html lang="de">/);
    assert.match(blocked.body, /Zu viele fehlgeschlagene Anmeldeversuche für dieses Konto\. Es ist vorübergehend gesperrt: Versuchen Sie es in 1 Minute erneut\./);
  });

  it('does not hash the password of a refused attempt', async () => {
    // Five failures lock the account (failureFactor), however slowly they come.
    for (let n = 0; n < 5; n += 1) await signIn('127.0.0.4', 'orgadmin@demo.test', `wrong-${n}`);
    const checks = countPasswordChecks();
    try {
      const refused = await signIn('127.0.0.4', 'orgadmin@demo.test', 'demo1234');
      assert.equal(refused.status, 429);
      assert.equal(checks.count, 0, 'refused before the password was checked');
      const allowed = await signIn('127.0.0.4', 'learner@other.test', 'wrong');
      assert.equal(allowed.status, 200);
      assert.equal(checks.count, 1, 'an attempt let through is checked');
    } finally {
      checks.restore();
    }
  });

  it('answers an unknown account exactly like a known one', async () => {
    await Promise.all([
      (async () => {
        for (let n = 0; n < 5; n += 1) await signIn('127.0.0.5', 'sysadmin@demo.test', `x${n}`);
      })(),
      (async () => {
        for (let n = 0; n < 5; n += 1) await signIn('127.0.0.6', 'nobody01@demo.test', `x${n}`);
      })(),
    ]);
    // The emails differ only in the part before @ and are equally long.
    const known = await signIn('127.0.0.7', 'sysadmin@demo.test', 'x');
    const unknown = await signIn('127.0.0.7', 'nobody01@demo.test', 'x');
    assert.equal(known.status, 429);
    assert.equal(unknown.status, 429);
    // Both locked for the same first round (a minute, or the quick-login minute); when exactly
    // each lock began depends only on when the failures came.
    for (const answer of [known, unknown]) {
      const retryAfter = Number(answer.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 60, String(retryAfter));
    }
    assert.equal(comparable(known.body).replace('sysadmin@', 'nobody01@'), comparable(unknown.body));
  });

  it('caps an address at 100 failures over any accounts, and no other address', async () => {
    const checks = countPasswordChecks();
    try {
      // One sign-in page, many posts: a sprayer does not load the page each time either.
      const { browser, action } = await signInForm();
      for (let n = 0; n < 100; n += 1) {
        const answer = await postFrom('127.0.0.8', browser, action, { email: `spray${n}@demo.test`, password: 'guess' });
        assert.equal(answer.status, 200, `failure ${n + 1}`);
      }
      assert.equal(checks.count, 100);
      const blocked = await signIn('127.0.0.8', 'learner@other.test', 'demo1234');
      assert.equal(blocked.status, 429);
      assert.equal(checks.count, 100, 'not hashed');
      // Until the first of the 100 leaves the 15-minute window.
      const retryAfter = Number(blocked.headers['retry-after']);
      assert.ok(retryAfter > 10 * 60 && retryAfter <= 15 * 60, String(retryAfter));
      assert.match(blocked.body, /Too many failed sign-in attempts from your network\. Try again in 1[0-5] minutes\./);
    } finally {
      checks.restore();
    }
    // Someone else signing in, from elsewhere, neither is blocked nor unblocks that address.
    assert.equal((await signIn('127.0.0.9', 'learner@other.test', 'demo1234')).status, 303);
    assert.equal((await signIn('127.0.0.8', 'learner@other.test', 'demo1234')).status, 429);
  });

  it('starts an account afresh after its owner signs in', async () => {
    assert.equal((await signIn('127.0.0.10', 'learner@demo.test', 'typo')).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await signIn('127.0.0.10', 'learner@demo.test', 'demo1234')).status, 303);
    // Without the reset, this failure (within a second of the last one counted) would lock it.
    assert.equal((await signIn('127.0.0.10', 'learner@demo.test', 'typo')).status, 200);
    assert.equal((await signIn('127.0.0.10', 'learner@demo.test', 'demo1234')).status, 303);
  });

  it('caps guessed device user codes per address with the same budget', async () => {
    const enterCode = async (address: string, userCode: string) => {
      const browser = new Browser();
      const page = await browser.fetch(`${app.issuer}/device`);
      const { action, fields } = formFrom(await page.text());
      return postFrom(address, browser, new URL(action, app.url), { ...fields, user_code: userCode });
    };
    for (let n = 0; n < 100; n += 1) {
      const wrong = await enterCode('127.0.0.13', 'ZZZZ-ZZZZ');
      assert.equal(wrong.status, 200);
      assert.match(wrong.body, /The code is invalid\./);
    }
    const device = (await (
      await fetch(`${app.issuer}${OIDC}/auth/device`, formBody({ client_id: 'frontend', scope: 'openid' }))
    ).json()) as { user_code: string };
    const blocked = await enterCode('127.0.0.13', device.user_code);
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    assert.match(blocked.body, /Too many invalid codes were entered\. Try again in 15 minutes\./);
    // The same address is capped for passwords too: one budget for all its guesses.
    assert.equal((await signIn('127.0.0.13', 'learner@other.test', 'demo1234')).status, 429);

    // The right code still works from elsewhere.
    const elsewhere = await enterCode('127.0.0.14', device.user_code);
    assert.ok([302, 303].includes(elsewhere.status), String(elsewhere.status));
  });
});
