import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { BulkUserResult } from '@portal/contract';
import { startIdentityApp, type IdentityApp } from '@portal/identity/src/app';
import { buildApp, type App } from '../../../../../src/app';
import {
  createTestDatabase,
  signToken,
  testConfig,
  testJwks,
  type TestDatabase,
  type TestApp,
} from '../../../../helper';
import {
  bulkAdd,
  createLicense,
  csvOf,
  orgAdmin,
  orgId,
  roleId,
  uploaded,
} from './user-admin-fixtures';

/**
 * The whole provisioning path against the real bundled identity provider, in process: the API's
 * Keycloak admin client signs in as the `portal-api` service client, creates the accounts and
 * asks for the set-password e-mails, which land in the provider's outbox.
 */
describe('provisioning against the bundled identity provider', () => {
  let identity: IdentityApp;
  let database: TestDatabase;
  let app: App;
  let t: TestApp;

  before(async () => {
    const secret = randomBytes(32).toString('hex');
    identity = await startIdentityApp({ dataDir: null, serviceClientSecret: secret, devMode: true });
    database = await createTestDatabase();
    app = await buildApp({
      config: testConfig({
        identityAdmin: {
          baseUrl: identity.url,
          realm: 'main',
          clientId: 'portal-api',
          clientSecret: secret,
        },
        // Only kicks after commits run the worker here, so the test sees exactly their effect.
        outboxPollMs: 3_600_000,
      }),
      db: database.db,
      jwks: testJwks,
      logger: false,
    });
    await app.ready();
    t = { app, db: database.db, close: async () => undefined };
  });
  after(async () => {
    await app?.close();
    await database?.dispose();
    await identity?.close();
  });

  async function outbox(): Promise<Array<{ to: string; subject: string; text: string }>> {
    const res = await fetch(`${identity.url}/dev/outbox.json`);
    assert.equal(res.status, 200);
    return (await res.json()) as Array<{ to: string; subject: string; text: string }>;
  }

  async function provisioned(ids: string[]) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await t.db.query<{ n: number }>(
        `select count(*)::int as n from outbox where key = any($1::text[]) and done_at is null`,
        [ids.map((id) => `user:${id}`)],
      );
      if (res.rows[0]!.n === 0) return;
      if (Date.now() >= deadline) {
        const errors = await t.db.query<{ kind: string; attempts: number; last_error: string }>(
          'select kind, attempts, last_error from outbox where key = any($1::text[]) and done_at is null',
          [ids.map((id) => `user:${id}`)],
        );
        assert.fail(`not provisioned within 10 s: ${JSON.stringify(errors.rows)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  test('a bulk add of 2 users ends in 2 accounts with one invitation each', async () => {
    const license = await createLicense(t.db, await orgId(t.db, 'Demo Hospital'), { seats: 2 });
    const file = await uploaded(
      t,
      orgAdmin.sub,
      csvOf([
        ['Ina', 'Invited', 'ina@provision.test'],
        ['Ivo', 'Invited', 'ivo@provision.test'],
      ]),
    );
    const started = Date.now();
    const res = await bulkAdd(t, orgAdmin.sub, {
      file,
      license,
      role: await roleId(t.db, 'learner'),
    });
    assert.equal(res.statusCode, 201, res.body);
    const ids = res.json<BulkUserResult>().users.map((u) => u.id);
    await provisioned(ids);
    const elapsed = Date.now() - started;

    const mails = await outbox();
    const invitations = mails.filter((m) => m.to.includes('@provision.test'));
    assert.deepEqual(invitations.map((m) => m.to).sort(), [
      'ina@provision.test',
      'ivo@provision.test',
    ]);
    assert.ok(elapsed < 5_000, `invitations within seconds (${elapsed} ms)`);

    // Ivo's mail got lost: the administrator sends it again, through the provider once more.
    const resent = await app.inject({
      method: 'POST',
      url: `/api/v1/user/${ids[1]}/invitation`,
      headers: {
        authorization: `Bearer ${await signToken(orgAdmin.sub)}`,
        cookie: 'XSRF-TOKEN=x',
        'x-xsrf-token': 'x',
      },
    });
    assert.equal(resent.statusCode, 202, resent.body);
    await provisioned([ids[1]!]);
    const again = (await outbox()).filter((m) => m.to === 'ivo@provision.test');
    assert.equal(again.length, 2);
    assert.match(again[1]!.text, /http/, 'the new mail has a set-password link');

    const rows = await t.db.query<{ id: string; identity_sub: string; account_status: string }>(
      'select id::text as id, identity_sub, account_status from users where id = any($1::uuid[]) order by email',
      [ids],
    );
    for (const row of rows.rows) {
      assert.equal(row.account_status, 'invited');
      assert.ok(row.identity_sub);
      // A token for the provider's account id signs in as our user.
      const whoami = await app.inject({
        method: 'GET',
        url: '/api/v1/user/whoami',
        headers: { authorization: `Bearer ${await signToken(row.identity_sub)}` },
      });
      assert.equal(whoami.statusCode, 200, whoami.body);
      assert.equal(whoami.json<{ id: string }>().id, row.id);
    }
    // That first sign-in made the accounts active.
    const signedIn = await t.db.query<{ account_status: string }>(
      'select account_status from users where id = any($1::uuid[])',
      [ids],
    );
    assert.deepEqual(
      signedIn.rows.map((r) => r.account_status),
      ['active', 'active'],
    );

    // Editing the e-mail follows to the account; deleting the user removes it.
    // Ina (by e-mail, first): her only invitation item is the one of her create.
    const first = rows.rows[0]!;
    const headers = {
      authorization: `Bearer ${await signToken(orgAdmin.sub)}`,
      cookie: 'XSRF-TOKEN=x',
      'x-xsrf-token': 'x',
    };
    const put = await app.inject({
      method: 'PUT',
      url: `/api/v1/user/${first.id}`,
      headers,
      payload: { firstName: 'Ina', lastName: 'Renamed', email: 'ina2@provision.test', userRole: 1 },
    });
    assert.equal(put.statusCode, 200, put.body);
    await provisioned([first.id]);
    assert.equal(identity.users.get(first.identity_sub)?.email, 'ina2@provision.test');
    const del = await app.inject({ method: 'DELETE', url: `/api/v1/user/${first.id}`, headers });
    assert.equal(del.statusCode, 204, del.body);
    await provisioned([first.id]);
    assert.equal(identity.users.get(first.identity_sub), undefined, 'the account is gone');
    const done = await t.db.query<{ kind: string; last_error: string | null }>(
      `select kind, last_error from outbox where key = $1 order by id`,
      [`user:${first.id}`],
    );
    assert.deepEqual(done.rows, [
      { kind: 'identity.create_user', last_error: null },
      { kind: 'identity.update_user', last_error: null },
      { kind: 'identity.delete_user', last_error: null },
    ]);
    assert.equal(
      (await outbox()).filter((m) => m.to.includes('@provision.test')).length,
      3,
      'no invitation beyond the two first ones and the one resent',
    );
  });
});
