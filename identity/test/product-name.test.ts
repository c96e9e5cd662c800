import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import type { IdentityApp } from '../src/app';
import { admin, createUser, linkIn, outbox, SERVICE_SECRET, serviceToken } from './helpers/admin';
import { Browser } from './helpers/browser';
import { authorizeUrl, OIDC, pkcePair, signIn, startTestProvider } from './helpers/oidc';

/** A name with markup in it: it must be shown as text, never run as markup. */
const PRODUCT = 'Acme <Training> & "Sims"';
const PRODUCT_ESCAPED = 'Acme &#60;Training&#62; &#38; &#34;Sims&#34;';

/** The product is named in the title and above the heading, escaped. */
async function assertNamesProduct(response: Response, what: string, name = PRODUCT_ESCAPED): Promise<string> {
  const html = await response.text();
  assert.match(html, new RegExp(`<title>[^<]* – ${escapeRegExp(name)}</title>`), `${what}: title`);
  assert.ok(html.includes(`<p class="product">${name}</p>`), `${what}: heading line`);
  assert.ok(!html.includes('<Training>'), `${what}: the name is escaped`);
  return html;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('PRODUCT_NAME on every page the provider renders', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider({ productName: PRODUCT, serviceClientSecret: SERVICE_SECRET });
  });
  after(() => app.close());

  it('the sign-in page and an expired or unknown interaction', async () => {
    const { challenge } = pkcePair();
    const page = await new Browser().follow(authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256' }));
    assert.equal(page.status, 200);
    await assertNamesProduct(page, 'sign-in page');
    await assertNamesProduct(await fetch(`${app.issuer}/interaction/stale-uid`), 'expired sign-in');
    await assertNamesProduct(await fetch(`${app.issuer}/interaction/a/b/c`), 'unknown interaction page');
  });

  it("the library's pages: an error, the device code page, the logout question", async () => {
    const error = await fetch(authorizeUrl(app, { redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' });
    assert.equal(error.status, 400);
    await assertNamesProduct(error, 'error page');
    await assertNamesProduct(await new Browser().follow(new URL(`${app.issuer}/device`)), 'device code page');
    const browser = new Browser();
    await signIn(app, browser);
    // A signed-in session and no ID token: the provider asks before logging out.
    const logout = await browser.fetch(new URL(`${app.issuer}${OIDC}/logout?client_id=frontend`));
    const html = await assertNamesProduct(logout, 'logout page');
    assert.ok(html.includes(`Do you want to log out of the ${PRODUCT_ESCAPED}?`), 'the question names the product');
  });

  it('the set-password page, the outbox and the invitation mail', async () => {
    const token = await serviceToken(app);
    const id = await createUser(app, token, { email: 'named@example.test', enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
    assert.equal((await admin(app, token, 'PUT', `/${id}/execute-actions-email`, ['UPDATE_PASSWORD'])).status, 204);
    const [mail] = await outbox(app);
    assert.ok(mail!.subject.includes(PRODUCT), 'the mail names the product');
    await assertNamesProduct(await fetch(linkIn(mail!)), 'set-password page');
    await assertNamesProduct(await fetch(`${app.issuer}/login-actions/action-token?key=forged`), 'invalid link page');
    await assertNamesProduct(await fetch(`${app.url}/dev/outbox`), 'outbox page');
  });
});

describe('PRODUCT_NAME unset', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider();
  });
  after(() => app.close());

  it('names the Simulation Portal', async () => {
    await assertNamesProduct(await fetch(`${app.issuer}/interaction/stale-uid`), 'expired sign-in', 'Simulation Portal');
  });
});
