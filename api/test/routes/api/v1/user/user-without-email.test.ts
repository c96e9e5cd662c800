import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { USER_ADMIN_MESSAGES, type AdminUser, type PagedResult } from '@portal/contract';
import { IDENTITY_KINDS } from '../../../../../src/identity/provisioning';
import { buildTestApp, type TestApp } from '../../../../helper';
import { headers, orgAdmin, orgId, roleId } from './user-admin-fixtures';

/**
 * A user a learning platform created without e-mail (issue #22 point 3) in the user
 * administration: listed with the platform's user id, edited without an address, invited only
 * once they have one, deleted with their identity account (`lti-<id>`, which a launch gives them).
 */
describe('users without e-mail in the user administration', () => {
  let t: TestApp;
  let demo: number;
  let learnerRole: number;

  before(async () => {
    t = await buildTestApp();
    demo = await orgId(t.db, 'Demo Hospital');
    learnerRole = await roleId(t.db, 'learner');
  });
  after(() => t.close());

  /** As a launch without e-mail and names leaves them: active, no address, a platform link. */
  async function platformUser(sub: string, names: [string, string] = ['', '']): Promise<string> {
    const id = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, null, $2, $3, $4, $5)`,
      [id, names[0], names[1], demo, learnerRole],
    );
    await t.db.query(
      'insert into lti_user_links (issuer, platform_sub, user_id) values ($1, $2, $3)',
      ['https://moodle.school.test', sub, id],
    );
    return id;
  }
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: await headers(orgAdmin.sub),
      ...(payload ? { payload } : {}),
    });

  test('listed and read with e-mail null and the platform user, found by the platform user id', async () => {
    const id = await platformUser('moodle-user-77');
    const list = await call('GET', `/api/v1/organisation/${demo}/user?filter=moodle-user-77`);
    assert.equal(list.statusCode, 200, list.body);
    const [row] = list.json<PagedResult<AdminUser>>().results;
    assert.equal(row?.id, id);
    assert.equal(row?.email, null);
    assert.equal(row?.fullName, '');
    assert.deepEqual(row?.platformUser, { platform: 'moodle.school.test', id: 'moodle-user-77' });
    const one = await call('GET', `/api/v1/user/${id}`);
    assert.deepEqual(one.json<AdminUser>().platformUser, row?.platformUser);

    // Users with an address carry no platform user.
    const all = await call('GET', `/api/v1/organisation/${demo}/user?pageSize=100`);
    for (const user of all.json<PagedResult<AdminUser>>().results) {
      assert.equal(user.platformUser === undefined, user.email !== null, user.id);
    }
  });

  test('names change without an address; an invitation is refused naming email', async () => {
    const id = await platformUser('moodle-user-78');
    const saved = await call('PUT', `/api/v1/user/${id}`, {
      firstName: 'Ada',
      lastName: 'King',
      email: '',
      userRole: learnerRole,
    });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.deepEqual(
      [saved.json<AdminUser>().fullName, saved.json<AdminUser>().email],
      ['Ada King', null],
    );
    const outbox = await t.db.query('select 1 from outbox where key = $1', [`user:${id}`]);
    assert.equal(outbox.rowCount, 0, 'no identity account to update');

    const invite = await call('POST', `/api/v1/user/${id}/invitation`);
    assert.equal(invite.statusCode, 400, invite.body);
    assert.deepEqual(invite.json(), { email: [USER_ADMIN_MESSAGES.noEmailToInvite] });
  });

  test('a first address makes the identity account with its invitation; a taken one is refused', async () => {
    const id = await platformUser('moodle-user-79', ['Bo', 'Lee']);
    const taken = await call('PUT', `/api/v1/user/${id}`, {
      firstName: 'Bo',
      lastName: 'Lee',
      email: orgAdmin.email,
      userRole: learnerRole,
    });
    assert.equal(taken.statusCode, 400);
    assert.deepEqual(taken.json(), { email: [USER_ADMIN_MESSAGES.emailTaken] });
    const invalid = await call('PUT', `/api/v1/user/${id}`, {
      firstName: 'Bo',
      lastName: 'Lee',
      email: 'not-an-address',
      userRole: learnerRole,
    });
    assert.equal(invalid.statusCode, 400);
    assert.ok(invalid.json<Record<string, unknown>>().email, invalid.body);

    const added = await call('PUT', `/api/v1/user/${id}`, {
      firstName: 'Bo',
      lastName: 'Lee',
      email: 'Bo.Lee@School.test',
      userRole: learnerRole,
    });
    assert.equal(added.statusCode, 200, added.body);
    const user = added.json<AdminUser>();
    assert.deepEqual([user.email, user.pendingEmail, user.accountStatus, user.platformUser], [
      'bo.lee@school.test',
      null,
      'provisioning',
      undefined,
    ]);
    const items = await t.db.query<{ kind: string; email: string }>(
      `select kind, payload->>'email' as email from outbox where key = $1`,
      [`user:${id}`],
    );
    assert.deepEqual(items.rows, [{ kind: IDENTITY_KINDS.create, email: 'bo.lee@school.test' }]);
  });

  test('deleting one queues the deletion of their identity account (lti-<id>)', async () => {
    const id = await platformUser('moodle-user-80');
    const removed = await call('DELETE', `/api/v1/user/${id}`);
    assert.equal(removed.statusCode, 204, removed.body);
    // The account itself goes in api/test/lti/launch-sign-in.test.ts, with the identity provider.
    const outbox = await t.db.query<{ kind: string; user_id: string; email: string | null }>(
      `select kind, payload->>'userId' as user_id, payload->>'email' as email
         from outbox where key = $1`,
      [`user:${id}`],
    );
    assert.deepEqual(outbox.rows, [{ kind: IDENTITY_KINDS.remove, user_id: id, email: null }]);
    const audit = await t.db.query(
      `select 1 from audit_log where entity_type = 'user' and entity_id = $1 and action = 'delete'`,
      [id],
    );
    assert.equal(audit.rowCount, 1);
  });
});
