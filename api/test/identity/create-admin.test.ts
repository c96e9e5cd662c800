import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startIdentityApp, type IdentityApp } from '@portal/identity/src/app';
import { migrate } from '../../src/db/migrate';
import {
  CREATE_ADMIN_ACTOR,
  CreateAdminError,
  createGlobalAdmin,
  invitationLinkFromOutbox,
} from '../../src/identity/create-admin';
import { createKeycloakIdentityAdmin, type IdentityAdmin } from '../../src/identity/identity-admin';
import { createUserRepository } from '../../src/repositories/user-repository';
import { seedDemoData } from '../../src/demo/seed-demo-data';
import { seedReferenceData } from '../../src/reference/seed-reference-data';
import { createMigratedTestDatabase, type TestDatabase } from '../helper';

/**
 * `npm run create-admin` (scripts/create-admin.mjs → api/scripts/create-admin.ts) against the real
 * bundled identity provider, without demo accounts (a production realm), through the same Keycloak
 * admin client the API uses for a real Keycloak.
 */
describe('create-admin: the first global administrator of a new installation', () => {
  let identity: IdentityApp;
  let database: TestDatabase;
  let admin: IdentityAdmin;

  before(async () => {
    const secret = randomBytes(32).toString('hex');
    identity = await startIdentityApp({ dataDir: null, serviceClientSecret: secret, devMode: true, seedDemo: false });
    database = await createMigratedTestDatabase();
    await migrate(database.db);
    await seedReferenceData(database.db);
    admin = createKeycloakIdentityAdmin(
      { baseUrl: identity.url, realm: 'main', clientId: 'portal-api', clientSecret: secret },
      { invitationClientId: 'frontend', portalUrl: 'http://localhost:8080' },
    );
  });
  after(async () => {
    await database?.db.close();
    await database?.dispose();
    await identity?.close();
  });

  test('makes the identity account, the portal user with every permission and no organisation, and a one-time link', async () => {
    assert.equal(identity.users.all().length, 0, 'the provider starts with no people');
    const created = await createGlobalAdmin(database.db, admin, {
      email: ' Root@Example.TEST ',
      firstName: 'Ruth',
      lastName: 'Root',
    });
    assert.equal(created.created, true);

    const account = identity.users.findByEmail('root@example.test');
    assert.equal(account?.id, created.sub);
    assert.equal(account?.enabled, true);
    assert.deepEqual(account?.requiredActions, ['UPDATE_PASSWORD']);
    assert.equal(account?.passwordHash, undefined, 'no password anyone knows');

    const row = (
      await database.db.query<{ email: string; role: string; organisation_id: number | null; account_status: string }>(
        `select u.email, r.name as role, u.organisation_id, u.account_status
           from users u join roles r on r.id = u.role_id where u.id = $1`,
        [created.userId],
      )
    ).rows[0];
    assert.deepEqual(row, { email: 'root@example.test', role: 'sys admin', organisation_id: null, account_status: 'invited' });
    // The token's sub finds the user with the global permissions.
    const authUser = await createUserRepository(database.db).findAuthUser(created.sub);
    assert.ok(authUser?.permissions.includes('global.create_org'));
    const audit = await database.db.query<{ actor_name: string }>(
      "select actor_name from audit_log where entity_type = 'user' and entity_id = $1 and action = 'create'",
      [created.userId],
    );
    assert.deepEqual(audit.rows, [{ actor_name: CREATE_ADMIN_ACTOR }]);

    const link = await invitationLinkFromOutbox(identity.url, 'root@example.test');
    assert.ok(link?.startsWith(`${identity.issuer}/login-actions/action-token?key=`), link);
    const page = await fetch(link!);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /root@example\.test/);
  });

  test('a second run for the same administrator sends a new link and creates nothing', async () => {
    const again = await createGlobalAdmin(database.db, admin, { email: 'root@example.test', firstName: 'Ruth', lastName: 'Root' });
    assert.equal(again.created, false);
    const users = await database.db.query("select 1 from users where lower(email) = 'root@example.test'");
    assert.equal(users.rowCount, 1);
    assert.equal(identity.users.all().length, 1);
    const mails = identity.outbox!.list().filter((mail) => mail.to === 'root@example.test');
    assert.equal(mails.length, 2);
  });

  test('refuses a user who has another role, and a bad e-mail, naming the option', async () => {
    await seedDemoData(database.db);
    await assert.rejects(
      createGlobalAdmin(database.db, admin, { email: 'learner@demo.test', firstName: 'L', lastName: 'L' }),
      (error: Error) => error instanceof CreateAdminError && /already a portal user with another role/.test(error.message),
    );
    await assert.rejects(
      createGlobalAdmin(database.db, admin, { email: 'not-an-address', firstName: 'N', lastName: 'N' }),
      (error: Error) => error instanceof CreateAdminError && /^--email:/.test(error.message),
    );
    assert.equal(identity.users.findByEmail('learner@demo.test'), undefined, 'no identity account was made for a refusal');
  });
});
