import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import { createRemoteJWKSet, jwtVerify } from 'jose';

import type { IdentityApp } from '../src/app';
import { admin, adminUrl, createUser, requestServiceToken, SERVICE_SECRET, serviceToken, type UserRepresentation } from './helpers/admin';
import { Browser } from './helpers/browser';
import { OIDC, PORTAL, signInForTokens, startTestProvider, tokenRequest, type TokenSet } from './helpers/oidc';

const learner = DEMO_ACCOUNTS.find((account) => account.role === 'learner')!;

describe('Keycloak admin REST API: authentication of callers', () => {
  let app: IdentityApp;

  before(async () => {
    app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
  });
  after(() => app.close());

  it('gives the portal-api client a Keycloak-shaped service-account token with manage-users and view-users', async () => {
    const response = await requestServiceToken(app);
    assert.equal(response.status, 200);
    const tokens = (await response.json()) as { access_token: string; token_type: string; expires_in: number; refresh_token?: string };
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.refresh_token, undefined, 'client credentials give no refresh token, as in Keycloak');
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${app.issuer}${OIDC}/certs`)), {
      issuer: app.issuer,
      typ: 'at+jwt',
    });
    assert.equal(payload.azp, 'portal-api');
    assert.equal(payload.preferred_username, 'service-account-portal-api');
    assert.deepEqual(payload.resource_access, { 'realm-management': { roles: ['manage-users', 'view-users'] } });
    // client_secret_post works as well as the admin client's Basic header.
    assert.equal((await requestServiceToken(app, { method: 'post' })).status, 200);
  });

  it('refuses a wrong secret at the token endpoint and a request without a token (401)', async () => {
    const wrong = await requestServiceToken(app, { secret: `${SERVICE_SECRET}x` });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: string }).error, 'invalid_client');
    const frontend = await requestServiceToken(app, { clientId: 'frontend' });
    assert.notEqual(frontend.status, 200, 'the public client has no client-credentials grant');

    const none = await admin(app, undefined, 'GET');
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal((await admin(app, 'not-a-token', 'GET')).status, 401);
    const basic = await fetch(adminUrl(app), { headers: { authorization: `Basic ${Buffer.from(`portal-api:${SERVICE_SECRET}`).toString('base64')}` } });
    assert.equal(basic.status, 401, 'the client secret itself is no admin credential');
  });

  it("refuses a signed-in user's access token of the frontend client (403), sys admin included", async () => {
    const sysAdmin = DEMO_ACCOUNTS.find((account) => account.role === 'sys admin')!;
    const tokens = await signInForTokens(app, new Browser(PORTAL), sysAdmin.email);
    for (const [method, body] of [['GET'], ['POST', { email: 'x@example.test' }]] as const) {
      const response = await admin(app, tokens.access_token, method, '', body);
      assert.equal(response.status, 403, method);
    }
    assert.equal((await admin(app, tokens.access_token, 'DELETE', `/${learner.sub}`)).status, 403);
    assert.equal((await admin(app, tokens.id_token, 'GET')).status, 401, 'an ID token is no access token');
    assert.ok(app.users.get(learner.sub), 'nothing was deleted');
  });

  it('refuses tokens of another provider instance (other signing key)', async () => {
    const other = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
    try {
      const foreign = await serviceToken(other);
      assert.equal((await admin(app, foreign, 'GET')).status, 401);
    } finally {
      await other.close();
    }
  });

  it('has no service client, and so no admin API, without a configured secret', async () => {
    const closed = await startTestProvider();
    try {
      assert.equal((await requestServiceToken(closed)).status, 401);
    } finally {
      await closed.close();
    }
  });
});

describe('Keycloak admin REST API: users', () => {
  let app: IdentityApp;
  let token: string;

  before(async () => {
    app = await startTestProvider({ serviceClientSecret: SERVICE_SECRET });
    token = await serviceToken(app);
  });
  after(() => app.close());

  const get = async (id: string) => (await (await admin(app, token, 'GET', `/${id}`)).json()) as UserRepresentation;
  const find = async (query: string) => (await (await admin(app, token, 'GET', `?${query}`)).json()) as UserRepresentation[];

  it('creates a user (201, Location with the new id), lower-cases the e-mail and keeps it as the username', async () => {
    const response = await admin(app, token, 'POST', '', {
      username: 'ignored-because-email-is-the-username',
      email: ' Clara.Creator@Example.test ',
      firstName: 'Clara',
      lastName: "O'Neill-Müller",
      enabled: true,
      requiredActions: ['UPDATE_PASSWORD'],
      attributes: { locale: ['de'], organisation: 'Demo Hospital' },
    });
    assert.equal(response.status, 201);
    const location = response.headers.get('location') ?? '';
    assert.match(location, new RegExp(`^${app.url}/admin/realms/main/users/[0-9a-f-]{36}$`));
    const user = await get(location.split('/').pop()!);
    assert.equal(user.username, 'clara.creator@example.test');
    assert.equal(user.email, 'clara.creator@example.test');
    assert.equal(user.firstName, 'Clara');
    assert.equal(user.lastName, "O'Neill-Müller");
    assert.equal(user.enabled, true);
    assert.equal(user.emailVerified, false);
    assert.deepEqual(user.requiredActions, ['UPDATE_PASSWORD']);
    assert.deepEqual(user.attributes, { locale: ['de'], organisation: ['Demo Hospital'] });
    assert.ok(Math.abs(user.createdTimestamp - Date.now()) < 60_000);
    assert.equal('credentials' in user || 'passwordHash' in user, false, 'no password material is ever answered');
  });

  it('a changed e-mail is not verified unless the update says so; names alone keep the flag', async () => {
    const id = await createUser(app, token, { email: 'verified.before@example.test', enabled: true, emailVerified: true });
    assert.equal((await admin(app, token, 'PUT', `/${id}`, { firstName: 'Vera' })).status, 204);
    assert.equal((await get(id)).emailVerified, true);
    assert.equal((await admin(app, token, 'PUT', `/${id}`, { email: 'Verified.Before@example.test' })).status, 204);
    assert.equal((await get(id)).emailVerified, true, 'the same address in another case is no change');
    assert.equal((await admin(app, token, 'PUT', `/${id}`, { email: 'nobody.confirmed@example.test' })).status, 204);
    assert.equal((await get(id)).emailVerified, false);
    assert.equal((await admin(app, token, 'PUT', `/${id}`, { email: 'owner.confirmed@example.test', emailVerified: true })).status, 204);
    assert.equal((await get(id)).emailVerified, true);
  });

  it('creates an account without e-mail by its username (a launched learner); an e-mail added later becomes its username', async () => {
    const id = await createUser(app, token, { username: 'LTI-7f3a2c', firstName: 'Lena', enabled: true, requiredActions: [] });
    const user = await get(id);
    assert.equal(user.username, 'lti-7f3a2c');
    assert.equal('email' in user, false, 'no e-mail in the representation, as Keycloak answers it');
    assert.deepEqual(user.requiredActions, []);
    assert.equal(app.users.findByEmail('lti-7f3a2c'), undefined, 'a username is no e-mail');
    const found = await admin(app, token, 'GET', '?username=lti-7f3a2c&exact=true');
    assert.deepEqual(((await found.json()) as { id: string }[]).map((u) => u.id), [id]);
    const again = await admin(app, token, 'POST', '', { username: 'lti-7f3a2c', enabled: true });
    assert.equal(again.status, 409);
    for (const username of ['someone@example.test', 'with space', 'x'.repeat(256)]) {
      const bad = await admin(app, token, 'POST', '', { username, enabled: true });
      assert.equal(bad.status, 400, username);
      assert.equal(((await bad.json()) as { field: string }).field, 'username');
    }
    assert.equal((await admin(app, token, 'PUT', `/${id}`, { email: 'Lena.Later@example.test' })).status, 204);
    const later = await get(id);
    assert.equal(later.email, 'lena.later@example.test');
    assert.equal(later.username, 'lena.later@example.test', 'signs in by e-mail from now on');
    assert.equal(app.users.findByEmail('lena.later@example.test')?.id, id);
    const reused = await createUser(app, token, { username: 'lti-7f3a2c', enabled: true });
    assert.notEqual(reused, id, 'the old username was freed');
  });

  it('creates users disabled unless enabled: true is sent, as Keycloak does', async () => {
    const id = await createUser(app, token, { email: 'disabled.by.default@example.test' });
    assert.equal((await get(id)).enabled, false);
  });

  it('answers 409 with Keycloak’s error body for an e-mail already in use, in any case', async () => {
    const response = await admin(app, token, 'POST', '', { email: 'LEARNER@demo.test', enabled: true });
    assert.equal(response.status, 409);
    assert.deepEqual(await response.json(), { errorMessage: 'User exists with same username' });
  });

  it('refuses a representation without e-mail, with a bad e-mail, with forbidden name characters or unknown actions (400)', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ firstName: 'No', lastName: 'Mail', enabled: true }, { field: 'email', errorMessage: 'error-user-attribute-required' }],
      [{ email: 'not an email' }, { field: 'email', errorMessage: 'invalid-email' }],
      [{ email: 'x@example.test', firstName: '<script>' }, { field: 'firstName', errorMessage: 'error-person-name-invalid-character' }],
      [{ email: 'x@example.test', lastName: 'x'.repeat(256) }, { field: 'lastName', errorMessage: 'error-invalid-length' }],
      [{ email: 'x@example.test', enabled: 'yes' }, { field: 'enabled', errorMessage: 'error-invalid-value' }],
    ];
    for (const [rep, expected] of cases) {
      const response = await admin(app, token, 'POST', '', rep);
      assert.equal(response.status, 400, JSON.stringify(rep));
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.field, expected.field);
      assert.equal(body.errorMessage, expected.errorMessage);
    }
    const action = await admin(app, token, 'POST', '', { email: 'x@example.test', requiredActions: ['CONFIGURE_TOTP'] });
    assert.equal(action.status, 400);
    assert.match(((await action.json()) as { errorMessage: string }).errorMessage, /CONFIGURE_TOTP/);
    assert.equal((await admin(app, token, 'POST', '', [])).status, 400);
    const notJson = await fetch(adminUrl(app), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{' });
    assert.equal(notJson.status, 400);
    assert.equal(app.users.findByEmail('x@example.test'), undefined);
  });

  it('finds users by exact e-mail or username, by search prefix and by infix, counts them and pages', async () => {
    const id = await createUser(app, token, { email: 'finder.one@example.test', firstName: 'Fiona', lastName: 'Finder', enabled: true });
    await createUser(app, token, { email: 'finder.two@example.test', firstName: 'Fred', lastName: 'Finder', enabled: true });

    assert.deepEqual((await find('email=FINDER.ONE@example.test&exact=true')).map((user) => user.id), [id]);
    assert.deepEqual((await find('username=finder.one@example.test&exact=true')).map((user) => user.id), [id]);
    assert.deepEqual(await find('email=finder.one@example&exact=true'), [], 'exact means exact');
    assert.equal((await find('email=finder.&exact=false')).length, 2, 'without exact, an infix match');
    assert.deepEqual((await find('search=fio')).map((user) => user.email), ['finder.one@example.test'], 'prefix of the first name');
    assert.equal((await find('search=finder')).length, 2);
    assert.equal((await find('search=*inder*')).length, 2);
    assert.equal((await find('search=inder')).length, 0, 'search is a prefix match unless * is used');
    assert.deepEqual((await find('search=finder&first=1&max=1')).map((user) => user.email), ['finder.two@example.test']);
    assert.equal((await find('search=finder&briefRepresentation=true'))[0]?.attributes, undefined);

    const count = await admin(app, token, 'GET', '/count?search=finder');
    assert.equal(count.status, 200);
    assert.equal(await count.json(), 2);
    const all = (await (await admin(app, token, 'GET', '/count')).json()) as number;
    assert.ok(all >= DEMO_ACCOUNTS.length + 2);
    assert.equal((await admin(app, token, 'GET', '?first=-1')).status, 400);
  });

  it('answers 404 for an unknown id, and the trailing slash the admin client adds is accepted', async () => {
    const missing = await admin(app, token, 'GET', '/00000000-0000-4000-8000-000000000000');
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'User not found' });
    assert.equal((await admin(app, token, 'GET', '/')).status, 200);
    assert.equal((await admin(app, token, 'PATCH', `/${learner.sub}`, {})).status, 405);
    assert.equal((await admin(app, token, 'GET', `/${learner.sub}/groups`)).status, 404);
  });

  it('updates names, e-mail (the username follows), enabled and required actions; refuses an e-mail in use (409)', async () => {
    const id = await createUser(app, token, { email: 'before@example.test', firstName: 'Before', lastName: 'Name', enabled: true });
    const response = await admin(app, token, 'PUT', `/${id}`, {
      firstName: 'After',
      email: 'After@Example.test',
      requiredActions: ['UPDATE_PASSWORD'],
    });
    assert.equal(response.status, 204);
    const user = await get(id);
    assert.equal(user.firstName, 'After');
    assert.equal(user.lastName, 'Name', 'fields not sent stay as they were');
    assert.equal(user.email, 'after@example.test');
    assert.equal(user.username, 'after@example.test');
    assert.deepEqual(user.requiredActions, ['UPDATE_PASSWORD']);
    assert.deepEqual(await find('email=before@example.test&exact=true'), [], 'the old e-mail is free again');

    const taken = await admin(app, token, 'PUT', `/${id}`, { email: learner.email });
    assert.equal(taken.status, 409);
    assert.deepEqual(await taken.json(), { errorMessage: 'User exists with same email' });
    assert.equal((await get(id)).email, 'after@example.test');
    assert.equal((await admin(app, token, 'PUT', '/00000000-0000-4000-8000-000000000000', { firstName: 'x' })).status, 404);
  });

  it('disabling a user ends their sessions: the refresh token is refused and sign-in too', async () => {
    const email = 'soon.disabled@example.test';
    const id = await createUser(app, token, { email, enabled: true, credentials: [{ type: 'password', value: 'correct horse', temporary: false }] });
    const tokens = await signInForTokens(app, new Browser(PORTAL), email, 'correct horse');
    assert.equal((await admin(app, token, 'PUT', `/${id}`, { enabled: false })).status, 204);
    const refresh = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(refresh.status, 400);
    await assert.rejects(signInForTokens(app, new Browser(PORTAL), email, 'correct horse'), /sign-in did not redirect/);
  });

  it('deletes a user (204): gone from lookups, sessions ended, a second delete is 404', async () => {
    const email = 'to.delete@example.test';
    const id = await createUser(app, token, { email, enabled: true, credentials: [{ type: 'password', value: 'correct horse' }] });
    const tokens: TokenSet = await signInForTokens(app, new Browser(PORTAL), email, 'correct horse');
    assert.equal((await admin(app, token, 'DELETE', `/${id}`)).status, 204);
    assert.equal((await admin(app, token, 'GET', `/${id}`)).status, 404);
    assert.deepEqual(await find(`email=${email}&exact=true`), []);
    assert.equal((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status, 400);
    const userinfo = await fetch(`${app.issuer}${OIDC}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(userinfo.status, 401);
    assert.equal((await admin(app, token, 'DELETE', `/${id}`)).status, 404);
    // The e-mail may be used again, for a new account with a new id.
    assert.notEqual(await createUser(app, token, { email }), id);
  });

  it('lets the service client delete a demo account too, as a Keycloak realm administrator could', async () => {
    const demo = DEMO_ACCOUNTS.find((account) => account.email === 'learner@other.test')!;
    assert.equal((await admin(app, token, 'DELETE', `/${demo.sub}`)).status, 204);
    assert.equal(await app.users.verifyCredentials(demo.email, 'demo1234'), undefined);
  });

  it('refuses a password on create that breaks the rules, and stores a good one only as a hash', async () => {
    const short = await admin(app, token, 'POST', '', { email: 'pw@example.test', credentials: [{ type: 'password', value: 'short' }] });
    assert.equal(short.status, 400);
    assert.equal(app.users.findByEmail('pw@example.test'), undefined);
    const id = await createUser(app, token, { email: 'pw@example.test', enabled: true, credentials: [{ type: 'password', value: 'long enough' }] });
    const stored = app.users.get(id)!;
    assert.match(stored.passwordHash ?? '', /^scrypt\$/);
    assert.equal(JSON.stringify(stored).includes('long enough'), false);
    // A temporary password means UPDATE_PASSWORD, which only the e-mailed link can clear.
    const temporary = await createUser(app, token, { email: 'tmp@example.test', enabled: true, credentials: [{ type: 'password', value: 'long enough', temporary: true }] });
    assert.deepEqual(app.users.get(temporary)?.requiredActions, ['UPDATE_PASSWORD']);
    assert.equal(await app.users.verifyCredentials('tmp@example.test', 'long enough'), undefined);
  });
});
