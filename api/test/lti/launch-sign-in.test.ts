import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { decodeJwt } from 'jose';
import { startIdentityApp, type IdentityApp } from '@portal/identity/src/app';
import { launchIdentityProvider } from '@portal/identity/src/broker/identity-providers';
import { Browser } from '@portal/identity/test/helpers/browser';
import { buildApp, type App } from '../../src/app';
import type { Db } from '../../src/db/driver';
import { authHeader, createMigratedTestDatabase, testConfig, testJwks, xsrfHeaders } from '../helper';
import { orgAdmin } from '../routes/api/v1/user/user-admin-fixtures';
import { createTestPlatform, serveJwks, signLaunch, type TestPlatform } from './platform-fixtures';
import { loginQuery, registerPlatform } from './lti-fixtures';
import { createAccountItem, deleteAccountItem } from '../../src/identity/provisioning';
import { createOutboxRepository } from '../../src/repositories/outbox-repository';

const BROKER_SECRET = randomBytes(24).toString('hex');
const PORTAL_CALLBACK = 'http://localhost:8080/auth/callback';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A launch is a sign-in, end to end with the real parts: the API listening on a port (its
 * broker), the bundled identity provider brokering it, the account and its federated identity
 * link made through the outbox and the Keycloak admin API. The browser is the identity
 * package's cookie jar; the platform is a test platform with its own key.
 */
describe('launch sign-in: API broker ↔ bundled identity provider', () => {
  let identity: IdentityApp;
  let app: App;
  let db: Db;
  let dispose: () => Promise<void>;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  let portalUrl: string;

  before(async () => {
    const port = await freePort();
    portalUrl = `http://127.0.0.1:${port}`;
    const serviceSecret = randomBytes(24).toString('hex');
    identity = await startIdentityApp({
      dataDir: null,
      serviceClientSecret: serviceSecret,
      devMode: true,
      passwordHashLog2N: 10,
      // The portal of the sign-ins, and the API's PORTAL_URL, where invitations lead back to.
      frontendOrigins: ['http://localhost:8080', portalUrl],
      identityProviders: [
        launchIdentityProvider({
          alias: 'lti',
          issuer: `${portalUrl}/api/lti/broker`,
          clientId: 'portal-identity',
          clientSecret: BROKER_SECRET,
        }),
      ],
    });
    const database = await createMigratedTestDatabase();
    db = database.db;
    dispose = database.dispose;
    app = await buildApp({
      config: testConfig({
        portalUrl,
        oidcIssuer: identity.issuer,
        identityAdmin: {
          baseUrl: identity.url,
          realm: 'main',
          clientId: 'portal-api',
          clientSecret: serviceSecret,
        },
        ltiBroker: { clientId: 'portal-identity', clientSecret: BROKER_SECRET, alias: 'lti' },
        outboxPollMs: 3_600_000,
      }),
      db,
      jwks: testJwks,
      logger: false,
    });
    await app.listen({ port, host: '127.0.0.1' });
    platform = await createTestPlatform();
    jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(db, platform, jwks.url, 'Demo Hospital');
  });
  after(async () => {
    await app.close();
    await dispose();
    await identity.close();
    await jwks.close();
  });

  /** The platform's form post, as the browser sends it; answers the launch and its cookie. */
  async function launch(sub: string, email: string | null) {
    const login = await app.inject({
      method: 'GET',
      url: `/api/lti/login?${loginQuery(platform, { target_link_uri: `${portalUrl}/api/lti/launch` })}`,
    });
    assert.equal(login.statusCode, 302, login.body);
    const location = new URL(login.headers.location as string);
    const idToken = await signLaunch(platform, {
      nonce: location.searchParams.get('nonce')!,
      sub,
      ...(email === null ? { omit: ['email'] } : { email }),
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/lti/launch',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        id_token: idToken,
        state: location.searchParams.get('state')!,
      }).toString(),
    });
    assert.equal(res.statusCode, 302, res.body);
    const launchId = new URL(res.headers.location as string).searchParams.get('launchId')!;
    const cookie = res.cookies.find((c) => c.name === 'lti_broker_binding')!;
    return { launchId, cookie: `${cookie.name}=${cookie.value}` };
  }

  /** The portal's sign-in with kc_idp_hint=lti and the launch as login_hint, through the broker. */
  async function signInByLaunch(browser: Browser, launchId: string, apiCookie: string) {
    const verifier = randomBytes(32).toString('base64url');
    const auth = new URL(`${identity.issuer}/protocol/openid-connect/auth`);
    for (const [k, v] of Object.entries({
      client_id: 'frontend',
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: PORTAL_CALLBACK,
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      kc_idp_hint: 'lti',
      login_hint: launchId,
    }))
      auth.searchParams.set(k, v);
    const toBroker = await browser.follow(auth);
    assert.equal(toBroker.status, 303, 'no sign-in form: straight to the broker');
    const brokerAuth = new URL(toBroker.headers.get('location')!);
    assert.equal(brokerAuth.origin, portalUrl);
    const answer = await fetch(brokerAuth, { redirect: 'manual', headers: { cookie: apiCookie } });
    assert.equal(answer.status, 302);
    const back = await browser.follow(new URL(answer.headers.get('location')!));
    return { back, verifier };
  }

  /** The portal's code exchange; answers the ID token's claims. */
  async function idTokenFor(code: string, verifier: string) {
    const tokens = await fetch(`${identity.issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost:8080',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'frontend',
        code,
        redirect_uri: PORTAL_CALLBACK,
        code_verifier: verifier,
      }),
    });
    assert.equal(tokens.status, 200, await tokens.clone().text());
    return decodeJwt(((await tokens.json()) as { id_token: string }).id_token);
  }

  test('a new learner launches and is signed in without a password, as their linked account', async () => {
    const email = `launched-${randomBytes(4).toString('hex')}@platform.test`;
    const { launchId, cookie } = await launch(`sub-${email}`, email);
    const browser = new Browser();
    const { back, verifier } = await signInByLaunch(browser, launchId, cookie);
    assert.equal(back.status, 303);
    const callback = new URL(back.headers.get('location')!);
    assert.equal(`${callback.origin}${callback.pathname}`, PORTAL_CALLBACK);
    const code = callback.searchParams.get('code');
    assert.ok(code, `a code for the portal: ${callback}`);

    const idToken = await idTokenFor(code, verifier);
    assert.equal(idToken.email, email, 'signed in as the account the launch provisioned');

    const user = await db.query<{ id: string; identity_sub: string }>(
      'select id::text, identity_sub from users where email = $1',
      [email],
    );
    assert.equal(idToken.sub, user.rows[0]!.identity_sub);
    const account = identity.users.get(user.rows[0]!.identity_sub)!;
    assert.deepEqual(account.federatedIdentities, [
      { identityProvider: 'lti', userId: user.rows[0]!.id, userName: user.rows[0]!.id },
    ]);
    const linked = await db.query('select 1 from lti_broker_account_links where user_id = $1', [
      user.rows[0]!.id,
    ]);
    assert.equal(linked.rowCount, 1, 'remembered, so the next launch asks for no link');
  });

  test('a launched account asks for no password; its invitation still does', async () => {
    const email = `no-actions-${randomBytes(4).toString('hex')}@platform.test`;
    await launch(`sub-${email}`, email);
    await app.outboxWorker.idle();
    const user = (
      await db.query<{ id: string; identity_sub: string }>(
        'select id::text, identity_sub from users where email = $1',
        [email],
      )
    ).rows[0]!;
    const create = await db.query<{ payload: { launched?: boolean } }>(
      `select payload from outbox where key = $1 and kind = 'identity.create_user'`,
      [`user:${user.id}`],
    );
    assert.equal(create.rows[0]!.payload.launched, true);
    assert.deepEqual(
      identity.users.get(user.identity_sub)!.requiredActions,
      [],
      'no UPDATE_PASSWORD: a real Keycloak would ask for a password after the brokered sign-in',
    );
    // The invitation (execute-actions-email) still asks to set one, for use of the portal directly.
    const invitation = identity.outbox!.list().find((mail) => mail.to === email);
    assert.ok(invitation, 'the invitation went out');
    const link = /https?:\/\/\S+/.exec(invitation.text)![0];
    const page = await new Browser().follow(new URL(link));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /type="password"/, "the invitation's link opens the set-password form");
  });

  test('a learner launched without e-mail gets an account of their own and is signed in by the launch', async () => {
    const sub = `no-email-${randomBytes(4).toString('hex')}`;
    const { launchId, cookie } = await launch(sub, null);
    const { back, verifier } = await signInByLaunch(new Browser(), launchId, cookie);
    assert.equal(back.status, 303, 'no "not linked" page');
    const code = new URL(back.headers.get('location')!).searchParams.get('code');
    assert.ok(code);
    const claims = await idTokenFor(code, verifier);

    const user = (
      await db.query<{ id: string; identity_sub: string; email: string | null; status: string }>(
        `select u.id::text, u.identity_sub, u.email, u.account_status as status
           from users u join lti_user_links k on k.user_id = u.id where k.platform_sub = $1`,
        [sub],
      )
    ).rows[0]!;
    assert.equal(user.email, null);
    assert.equal(user.status, 'active', 'no invitation to wait for');
    assert.equal(claims.sub, user.identity_sub, 'signed in as the account the launch provisioned');
    assert.equal('email' in claims, false);
    const account = identity.users.get(user.identity_sub)!;
    assert.equal(account.username, `lti-${user.id}`);
    assert.equal(account.email, '');
    assert.deepEqual(account.requiredActions, []);
    assert.deepEqual(account.federatedIdentities, [
      { identityProvider: 'lti', userId: user.id, userName: user.id },
    ]);
    const created = await db.query<{ payload: { email: string | null; launched: boolean } }>(
      `select payload from outbox where key = $1 and kind = 'identity.create_user'`,
      [`user:${user.id}`],
    );
    assert.deepEqual(
      { email: created.rows[0]!.payload.email, launched: created.rows[0]!.payload.launched },
      { email: null, launched: true },
    );

    // An administrator adds an e-mail later (services/user/update-user.ts queues a create): the
    // same account takes it as e-mail and username, and the invitation goes to it.
    const email = `later-${sub}@platform.test`;
    await db.query(`update users set email = $2, account_status = 'provisioning' where id = $1`, [
      user.id,
      email,
    ]);
    const accounts = identity.users.all().length;
    await createOutboxRepository(db).enqueue([
      createAccountItem({ id: user.id, email, firstName: 'Lena', lastName: 'Platform' }),
    ]);
    app.outboxWorker.kick();
    await app.outboxWorker.idle();
    assert.equal(identity.users.all().length, accounts, 'no second account');
    const updated = identity.users.get(user.identity_sub)!;
    assert.equal(updated.email, email);
    assert.equal(updated.username, email, 'signs in by e-mail from now on');
    assert.ok(identity.outbox!.list().some((mail) => mail.to === email), 'the invitation went out');
    assert.equal(
      (await db.query<{ s: string }>('select identity_sub as s from users where id = $1', [user.id])).rows[0]!.s,
      user.identity_sub,
    );
  });

  test("deleting a launched user without e-mail removes their identity account; the platform user's next launch starts afresh", async () => {
    const sub = `deleted-${randomBytes(4).toString('hex')}`;
    const first = await launch(sub, null);
    assert.ok((await signInByLaunch(new Browser(), first.launchId, first.cookie)).back.headers.get('location'));
    const user = (
      await db.query<{ id: string; identity_sub: string }>(
        `select u.id::text, u.identity_sub from users u
           join lti_user_links k on k.user_id = u.id where k.platform_sub = $1`,
        [sub],
      )
    ).rows[0]!;
    assert.equal(identity.users.get(user.identity_sub)?.username, `lti-${user.id}`);

    // Demo Hospital's administrator deletes the user in the portal's user administration.
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${user.id}`,
      headers: { ...(await authHeader(orgAdmin.sub, { issuer: identity.issuer })), ...xsrfHeaders() },
    });
    assert.equal(removed.statusCode, 204, removed.body);
    app.outboxWorker.kick();
    await app.outboxWorker.idle();
    assert.equal(identity.users.get(user.identity_sub), undefined, 'the account is gone');
    assert.equal(
      identity.users.all().some((a) => a.username === `lti-${user.id}`),
      false,
    );
    assert.equal(identity.users.findByFederatedIdentity('lti', user.id), undefined, 'and its broker link');

    // The same platform user launches again: a new portal user with a new account, signed in.
    const again = await launch(sub, null);
    const { back, verifier } = await signInByLaunch(new Browser(), again.launchId, again.cookie);
    const code = new URL(back.headers.get('location')!).searchParams.get('code');
    assert.ok(code, 'signed in by the launch');
    const claims = await idTokenFor(code, verifier);
    const now = (
      await db.query<{ id: string; identity_sub: string }>(
        `select u.id::text, u.identity_sub from users u
           join lti_user_links k on k.user_id = u.id where k.platform_sub = $1`,
        [sub],
      )
    ).rows[0]!;
    assert.notEqual(now.id, user.id);
    assert.equal(claims.sub, now.identity_sub);
    assert.equal(identity.users.get(now.identity_sub)?.username, `lti-${now.id}`);
  });

  test("a deletion that knows no account id of theirs finds a launched user's account by its username, never by an e-mail", async () => {
    const gone = randomUUID();
    const orphan = identity.users.create({ email: '', username: `lti-${gone}` });
    const byEmail = identity.users.create({ email: `kept-${gone}@platform.test` });
    await createOutboxRepository(db).enqueue([
      // An active user without a recorded account stands in with their own id (identitySubOf).
      deleteAccountItem({ id: gone, email: null, sub: gone }),
      deleteAccountItem({ id: randomUUID(), email: byEmail.email, sub: null }),
    ]);
    app.outboxWorker.kick();
    await app.outboxWorker.idle();
    assert.equal(identity.users.get(orphan.id), undefined);
    assert.ok(identity.users.get(byEmail.id), 'an address may belong to another account by now');
  });

  test('an existing user without a link gets one at their next launch; a second launch adds no item', async () => {
    const email = `existing-${randomBytes(4).toString('hex')}@platform.test`;
    await launch(`sub-${email}`, email);
    await app.outboxWorker.idle();
    const user = (
      await db.query<{ id: string; identity_sub: string }>(
        'select id::text, identity_sub from users where email = $1',
        [email],
      )
    ).rows[0]!;
    // As before this change: an account without the link.
    await db.query('delete from lti_broker_account_links where user_id = $1', [user.id]);
    const before = identity.users.get(user.identity_sub)!;
    assert.ok(before.federatedIdentities?.length);
    const unlinked = await fetch(
      `${identity.url}/admin/realms/main/users/${user.identity_sub}/federated-identity/lti`,
      { method: 'DELETE' },
    );
    assert.equal(unlinked.status, 401, 'the admin API needs the service token');
    identity.users.removeFederatedIdentity(user.identity_sub, 'lti');

    const { launchId, cookie } = await launch(`sub-${email}`, email);
    const { back } = await signInByLaunch(new Browser(), launchId, cookie);
    assert.ok(
      new URL(back.headers.get('location')!).searchParams.get('code'),
      'signed in after the link was made again',
    );
    const items = await db.query<{ n: string }>(
      `select count(*)::text as n from outbox where key = $1 and kind = 'identity.link_broker'`,
      [`user:${user.id}`],
    );
    await launch(`sub-${email}`, email);
    const after = await db.query<{ n: string }>(
      `select count(*)::text as n from outbox where key = $1 and kind = 'identity.link_broker'`,
      [`user:${user.id}`],
    );
    assert.equal(after.rows[0]!.n, items.rows[0]!.n, 'linked users are not asked again');
  });

  test("another browser's launch cookie does not sign in: the identity provider shows the password form", async () => {
    const email = `other-${randomBytes(4).toString('hex')}@platform.test`;
    const mine = await launch(`sub-${email}`, email);
    const theirs = await launch(`sub-b-${email}`, `b-${email}`);
    const { back } = await signInByLaunch(new Browser(), theirs.launchId, mine.cookie);
    assert.equal(back.status, 200);
    assert.match(await back.text(), /through your learning platform did not work/);
  });
});
