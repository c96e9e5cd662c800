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

describe('sign-in rate limits (10 failures in 15 minutes, per account and per address)', () => {
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

  async function fail(address: string, email: string, times: number) {
    const { browser, action } = await signInForm();
    for (let n = 0; n < times; n += 1) {
      const answer = await postFrom(address, browser, action, { email, password: `wrong-${n}` });
      assert.equal(answer.status, 200, `failure ${n + 1} of ${email} from ${address}`);
      assert.match(answer.body, /Invalid email or password\./);
    }
  }

  it('answers 429 after 10 failures for an account, even to the right password, from any address', async () => {
    await fail('127.0.0.2', 'educator@demo.test', 10);
    const { browser, action } = await signInForm();
    const blocked = await postFrom('127.0.0.3', browser, action, { email: 'Educator@Demo.test', password: 'demo1234' });
    assert.equal(blocked.status, 429);
    const retryAfter = Number(blocked.headers['retry-after']);
    assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, String(retryAfter));
    assert.match(blocked.body, /role="alert">Too many failed sign-in attempts\. Try again in 15 minutes\.<\/p>/);
    assert.match(blocked.body, /<form method="post"/, 'the form stays for the next try');
    assert.match(String(blocked.headers['content-security-policy']), /default-src 'none'/);
  });

  it('answers an unknown account exactly like a known one', async () => {
    // Side by side: each failure costs a password hash (~0.1 s), and both blocks should end together.
    await Promise.all([fail('127.0.0.4', 'orgadmin@demo.test', 10), fail('127.0.0.5', 'nobody@demo.test', 10)]);
    const known = await signInForm();
    const unknown = await signInForm();
    // The emails differ only in the part before @, so they are equally long.
    const knownAnswer = await postFrom('127.0.0.6', known.browser, known.action, { email: 'orgadmin@demo.test', password: 'x' });
    const unknownAnswer = await postFrom('127.0.0.6', unknown.browser, unknown.action, { email: 'nobody@demo.test', password: 'x' });
    assert.equal(knownAnswer.status, 429);
    assert.equal(unknownAnswer.status, 429);
    // The two blocks started within the same second or two; the header says nothing more.
    const retryGap = Number(knownAnswer.headers['retry-after']) - Number(unknownAnswer.headers['retry-after']);
    assert.ok(Math.abs(retryGap) <= 2, `Retry-After differs by ${retryGap} s`);
    assert.equal(comparable(knownAnswer.body).replace('orgadmin@', 'nobody@'), comparable(unknownAnswer.body));
  });

  it('blocks an address after 10 failures over any accounts, and no other address', async () => {
    for (let n = 0; n < 10; n += 1) await fail('127.0.0.7', `spray${n}@demo.test`, 1);
    const { browser, action } = await signInForm();
    const blocked = await postFrom('127.0.0.7', browser, action, { email: 'learner@other.test', password: 'demo1234' });
    assert.equal(blocked.status, 429);

    // Someone else signing in, from elsewhere, neither is blocked nor unblocks that address.
    const other = await signInForm();
    const success = await postFrom('127.0.0.8', other.browser, other.action, { email: 'learner@other.test', password: 'demo1234' });
    assert.equal(success.status, 303);
    const again = await signInForm();
    const stillBlocked = await postFrom('127.0.0.7', again.browser, again.action, { email: 'learner@other.test', password: 'demo1234' });
    assert.equal(stillBlocked.status, 429);
  });

  it('starts an account afresh after its owner signs in, but not the address that failed', async () => {
    await fail('127.0.0.9', 'sysadmin@demo.test', 9);
    const owner = await signInForm();
    assert.equal((await postFrom('127.0.0.9', owner.browser, owner.action, { email: 'sysadmin@demo.test', password: 'demo1234' })).status, 303);
    // Without the reset, these nine would make 18 failures for the account and block it.
    await fail('127.0.0.10', 'sysadmin@demo.test', 9);
    const next = await signInForm();
    assert.equal((await postFrom('127.0.0.11', next.browser, next.action, { email: 'sysadmin@demo.test', password: 'demo1234' })).status, 303);
    // The address that failed nine times fails once more and is blocked: success did not reset it.
    await fail('127.0.0.9', 'someone@demo.test', 1);
    const late = await signInForm();
    assert.equal((await postFrom('127.0.0.9', late.browser, late.action, { email: 'sysadmin@demo.test', password: 'demo1234' })).status, 429);
  });

  it('says so in German on German pages', async () => {
    // The account has been blocked since the first test.
    const { browser, action } = await signInForm('de');
    const blocked = await postFrom('127.0.0.12', browser, action, { email: 'educator@demo.test', password: 'demo1234' });
    assert.equal(blocked.status, 429);
    assert.match(blocked.body, /<html lang="de">/);
    assert.match(blocked.body, /Zu viele fehlgeschlagene Anmeldeversuche\. Versuchen Sie es in 15 Minuten erneut\./);
  });

  it('limits guessed device user codes per address', async () => {
    const enterCode = async (address: string, userCode: string) => {
      const browser = new Browser();
      const page = await browser.fetch(`${app.issuer}/device`);
      const { action, fields } = formFrom(await page.text());
      return postFrom(address, browser, new URL(action, app.url), { ...fields, user_code: userCode });
    };
    for (let n = 0; n < 10; n += 1) {
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

    // The right code still works from elsewhere.
    const elsewhere = await enterCode('127.0.0.14', device.user_code);
    assert.ok([302, 303].includes(elsewhere.status), String(elsewhere.status));
  });
});
