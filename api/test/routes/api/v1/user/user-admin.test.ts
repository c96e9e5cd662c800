import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AdminUser, BulkUserResult, PagedResult } from '@portal/contract';
import { buildTestApp, type TestApp } from '../../../../helper';
import {
  bulkAdd,
  count,
  createLicense,
  csvOf,
  headers,
  learner,
  orgAdmin,
  orgId,
  otherLearner,
  roleId,
  sysAdmin,
  uploaded,
} from './user-admin-fixtures';

describe('user administration', () => {
  let t: TestApp;
  let demo: number;
  let other: number;
  let learnerRole: number;
  let sysAdminRole: number;

  before(async () => {
    t = await buildTestApp();
    demo = await orgId(t.db, 'Demo Hospital');
    other = await orgId(t.db, 'Other College');
    learnerRole = await roleId(t.db, 'learner');
    sysAdminRole = await roleId(t.db, 'sys admin');
  });
  after(() => t.close());

  const get = async (url: string, sub: string) =>
    t.app.inject({ method: 'GET', url, headers: await headers(sub) });

  describe('POST /api/v1/user (bulk add)', () => {
    test('adds every row to the licence, with seats, outbox items, a saved file and an audit entry', async () => {
      const license = await createLicense(t.db, demo, { seats: 3 });
      const file = await uploaded(
        t,
        orgAdmin.sub,
        csvOf([
          ['Ada', 'Lovelace', 'Ada.Lovelace@Example.test'],
          ['Alan', 'Turing', 'alan@example.test'],
        ]),
      );
      const res = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json<BulkUserResult>();
      assert.equal(body.count, 2);
      assert.deepEqual(
        body.users.map((u) => u.email),
        ['ada.lovelace@example.test', 'alan@example.test'],
      );
      const ids = body.users.map((u) => u.id);
      const rows = await t.db.query<{
        organisation_id: number;
        account_status: string;
        role_id: number;
      }>('select organisation_id, account_status, role_id from users where id = any($1::uuid[])', [
        ids,
      ]);
      assert.deepEqual(
        rows.rows.map((r) => [r.organisation_id, r.account_status, r.role_id]),
        [
          [demo, 'provisioning', learnerRole],
          [demo, 'provisioning', learnerRole],
        ],
      );
      assert.equal(
        await count(t.db, 'license_block_users where license_block_id = $1', [license]),
        2,
      );
      const seats = await t.db.query<{ seats_used: number }>(
        'select seats_used from license_blocks where id = $1',
        [license],
      );
      assert.equal(seats.rows[0]!.seats_used, 2);
      const outbox = await t.db.query<{ kind: string; payload: { userId: string } }>(
        `select kind, payload from outbox where key = any($1::text[]) order by id`,
        [ids.map((id) => `user:${id}`)],
      );
      assert.deepEqual(
        outbox.rows.map((r) => [r.kind, r.payload.userId]),
        ids.map((id) => ['identity.create_user', id]),
      );
      const state = await t.db.query<{ state: string }>('select state from files where id = $1', [
        file,
      ]);
      assert.equal(state.rows[0]!.state, 'saved');
      assert.equal(
        await count(t.db, `audit_log where entity_type = 'user' and entity_id = $1`, [
          `bulk:${file}`,
        ]),
        1,
      );
      // The file was used: a second add with it is refused and creates nobody.
      const again = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
      assert.equal(again.statusCode, 400, again.body);
      assert.deepEqual(Object.keys(again.json()), ['file']);
    });

    test('bad rows refuse the whole file, listing every row with its field and reason', async () => {
      const license = await createLicense(t.db, demo, { seats: 50 });
      const file = await uploaded(
        t,
        orgAdmin.sub,
        [
          'email;lastName;firstName',
          'good@example.test;Good;Gina',
          'not-an-email;Bad;Bob',
          ';Empty;Eve',
          'dup@example.test;One;Dan',
          'DUP@example.test;Two;Dan',
          `${learner.email};Taken;Tom`,
          'x@example.test;;',
        ].join('\r\n'),
      );
      const before = await count(t.db, 'users');
      const res = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        file: ['The file has 5 rows with errors; no user was added.'],
        rows: [
          { row: 3, field: 'email', message: 'Enter a valid email address.' },
          { row: 4, field: 'email', message: 'This field is required.' },
          {
            row: 6,
            field: 'email',
            message: 'This e-mail address appears more than once in the file (first in row 5).',
          },
          { row: 7, field: 'email', message: 'A user with this e-mail address already exists.' },
          { row: 8, field: 'firstName', message: 'This field is required.' },
          { row: 8, field: 'lastName', message: 'This field is required.' },
        ],
      });
      assert.equal(await count(t.db, 'users'), before);
      assert.equal(
        await count(t.db, 'license_block_users where license_block_id = $1', [license]),
        0,
      );
      const state = await t.db.query<{ state: string }>('select state from files where id = $1', [
        file,
      ]);
      assert.equal(state.rows[0]!.state, 'uploaded', 'the file can be fixed and used again');
    });

    test('more rows than free seats: the rows past them are listed and nothing is created', async () => {
      const license = await createLicense(t.db, demo, { seats: 2 });
      const file = await uploaded(
        t,
        orgAdmin.sub,
        csvOf([
          ['A', 'One', 'seat1@example.test'],
          ['B', 'Two', 'seat2@example.test'],
          ['C', 'Three', 'seat3@example.test'],
        ]),
      );
      const before = await count(t.db, 'users');
      const outboxBefore = await count(t.db, 'outbox');
      const res = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        file: ['The file has 1 rows with errors; no user was added.'],
        license: ['Not enough seats on this licence: 2 available.'],
        rows: [
          { row: 4, field: 'license', message: 'Not enough seats on this licence: 2 available.' },
        ],
      });
      assert.equal(await count(t.db, 'users'), before);
      assert.equal(await count(t.db, 'outbox'), outboxBefore);
      assert.equal(
        await count(t.db, 'license_block_users where license_block_id = $1', [license]),
        0,
      );
    });

    test('an expired licence grants no seats', async () => {
      const license = await createLicense(t.db, demo, { expired: true });
      const file = await uploaded(
        t,
        orgAdmin.sub,
        csvOf([['E', 'Xpired', 'expired@example.test']]),
      );
      const res = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), { license: ['This licence is inactive or expired.'] });
      assert.equal(await count(t.db, `users where email = 'expired@example.test'`), 0);
    });

    test('an organisation administrator cannot grant the sys admin role; a global one can', async () => {
      const license = await createLicense(t.db, demo);
      const file = await uploaded(
        t,
        orgAdmin.sub,
        csvOf([['Sys', 'Wannabe', 'wannabe@example.test']]),
      );
      const res = await bulkAdd(t, orgAdmin.sub, { file, license, role: sysAdminRole });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        role: ['Only global administrators may grant or remove the sys admin role.'],
      });
      assert.equal(await count(t.db, `users where email = 'wannabe@example.test'`), 0);

      const own = await uploaded(
        t,
        sysAdmin.sub,
        csvOf([['Sys', 'Granted', 'granted@example.test']]),
      );
      const ok = await bulkAdd(t, sysAdmin.sub, { file: own, license, role: sysAdminRole });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    test("another organisation's licence, someone else's file and learners are 404/403", async () => {
      const foreign = await createLicense(t.db, other);
      const mine = await createLicense(t.db, demo);
      const file = await uploaded(
        t,
        orgAdmin.sub,
        csvOf([['F', 'Oreign', 'foreign@example.test']]),
      );
      const toForeign = await bulkAdd(t, orgAdmin.sub, {
        file,
        license: foreign,
        role: learnerRole,
      });
      assert.equal(toForeign.statusCode, 404, toForeign.body);
      const sysFile = await uploaded(
        t,
        sysAdmin.sub,
        csvOf([['S', 'File', 'sysfile@example.test']]),
      );
      const notMine = await bulkAdd(t, orgAdmin.sub, {
        file: sysFile,
        license: mine,
        role: learnerRole,
      });
      assert.equal(notMine.statusCode, 404, notMine.body);
      const asLearner = await bulkAdd(t, learner.sub, { file, license: mine, role: learnerRole });
      assert.equal(asLearner.statusCode, 403, asLearner.body);
      assert.equal(
        await count(t.db, `users where email in ('foreign@example.test', 'sysfile@example.test')`),
        0,
      );
    });
  });

  describe('GET /api/v1/organisation/{id}/user and GET /api/v1/user/{id}', () => {
    test('an organisation administrator lists and reads their own organisation only', async () => {
      const res = await get(
        `/api/v1/organisation/${demo}/user?ordering=email&filter=demo.test`,
        orgAdmin.sub,
      );
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json<PagedResult<AdminUser>>();
      assert.ok(page.results.length >= 3);
      const emails = page.results.map((u) => u.email);
      assert.deepEqual(emails, [...emails].sort());
      assert.ok(page.results.every((u) => u.organisation === demo));
      assert.ok(!emails.includes(otherLearner.email));

      assert.equal((await get(`/api/v1/organisation/${other}/user`, orgAdmin.sub)).statusCode, 404);
      assert.equal((await get(`/api/v1/user/${otherLearner.sub}`, orgAdmin.sub)).statusCode, 404);
      assert.equal((await get(`/api/v1/user/${randomUUID()}`, orgAdmin.sub)).statusCode, 404);
      assert.equal((await get(`/api/v1/organisation/${demo}/user`, learner.sub)).statusCode, 403);

      const one = await get(`/api/v1/user/${learner.sub}`, orgAdmin.sub);
      assert.equal(one.statusCode, 200, one.body);
      assert.equal(one.json<AdminUser>().email, learner.email);
      assert.equal(one.json<AdminUser>().accountStatus, 'active');
      const any = await get(`/api/v1/user/${otherLearner.sub}`, sysAdmin.sub);
      assert.equal(any.statusCode, 200, any.body);
      assert.equal((await get(`/api/v1/organisation/${other}/user`, sysAdmin.sub)).statusCode, 200);
    });

    test('a page past the last is 404 Invalid page., an unknown ordering 400', async () => {
      const past = await get(`/api/v1/organisation/${demo}/user?page=999`, orgAdmin.sub);
      assert.equal(past.statusCode, 404);
      assert.deepEqual(past.json(), { detail: 'Invalid page.' });
      const bad = await get(`/api/v1/organisation/${demo}/user?ordering=password`, orgAdmin.sub);
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(Object.keys(bad.json()), ['ordering']);
    });
  });

  describe('PUT /api/v1/user/{id}', () => {
    const put = async (id: string, sub: string, payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${id}`,
        headers: await headers(sub),
        payload,
      });

    test('changes names and role at once, the e-mail only pending; the account update goes to the outbox; whoami follows', async () => {
      const id = await newUser('edit.me@example.test');
      const res = await put(id, orgAdmin.sub, {
        firstName: ' Edited ',
        lastName: 'Name',
        email: 'Edited@Example.test',
        userRole: await roleId(t.db, 'educator'),
      });
      assert.equal(res.statusCode, 200, res.body);
      const user = res.json<AdminUser>();
      assert.equal(user.firstName, 'Edited');
      // The new address has not consented yet (email-change.test.ts has the rest of the story).
      assert.equal(user.email, 'edit.me@example.test');
      assert.equal(user.pendingEmail, 'edited@example.test');
      assert.equal(user.roleName, 'educator');
      const items = await t.db.query<{ kind: string; payload: { email: string } }>(
        `select kind, payload from outbox where key = $1 order by id`,
        [`user:${id}`],
      );
      assert.deepEqual(
        items.rows.map((r) => [r.kind, r.payload.email]),
        [['identity.update_user', 'edit.me@example.test']],
      );
      assert.equal(
        await count(
          t.db,
          `audit_log where entity_type = 'user' and entity_id = $1 and action = 'update'`,
          [id],
        ),
        1,
      );
      const whoami = await get('/api/v1/user/whoami', id);
      assert.equal(whoami.json<{ roleName: string }>().roleName, 'educator');
    });

    test('refusals: sys admin role by an organisation administrator, e-mail in use, other organisation, bad fields', async () => {
      const id = await newUser('refuse.me@example.test');
      const base = {
        firstName: 'R',
        lastName: 'M',
        email: 'refuse.me@example.test',
        userRole: learnerRole,
      };
      const sys = await put(id, orgAdmin.sub, { ...base, userRole: sysAdminRole });
      assert.equal(sys.statusCode, 400);
      assert.deepEqual(sys.json(), {
        userRole: ['Only global administrators may grant or remove the sys admin role.'],
      });
      const taken = await put(id, orgAdmin.sub, { ...base, email: learner.email });
      assert.equal(taken.statusCode, 400);
      assert.deepEqual(taken.json(), {
        email: ['A user with this e-mail address already exists.'],
      });
      const blank = await put(id, orgAdmin.sub, { ...base, firstName: ' ', email: 'nope' });
      assert.equal(blank.statusCode, 400);
      assert.deepEqual(blank.json(), {
        firstName: ['This field is required.'],
        email: ['Enter a valid email address.'],
      });
      const foreign = await put(otherLearner.sub, orgAdmin.sub, {
        ...base,
        email: otherLearner.email,
      });
      assert.equal(foreign.statusCode, 404);
      const onSysAdmin = await put(sysAdmin.sub, orgAdmin.sub, { ...base, email: sysAdmin.email });
      assert.equal(onSysAdmin.statusCode, 404, 'a sys admin is no member of the organisation');
      assert.equal(await count(t.db, `outbox where key = $1`, [`user:${id}`]), 0);
    });

    test('the last global administrator cannot lose the role', async () => {
      // Earlier tests added global administrators; leave the demo one alone.
      await t.db.query(
        `delete from users where id <> $1 and role_id = (select id from roles where name = 'sys admin')`,
        [sysAdmin.sub],
      );
      const res = await put(sysAdmin.sub, sysAdmin.sub, {
        firstName: sysAdmin.firstName,
        lastName: sysAdmin.lastName,
        email: sysAdmin.email,
        userRole: learnerRole,
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        userRole: ['The last global administrator cannot be deleted or lose the role.'],
      });
      assert.equal(
        (await get('/api/v1/user/whoami', sysAdmin.sub)).json<{ roleName: string }>().roleName,
        'sys admin',
      );
    });
  });

  describe('DELETE /api/v1/user/{id} and /license-block/{licenseId}', () => {
    const del = async (url: string, sub: string) =>
      t.app.inject({ method: 'DELETE', url, headers: await headers(sub) });

    test('deleting a user frees their seats, queues the account removal and is audited', async () => {
      const license = await createLicense(t.db, demo, { seats: 1 });
      const file = await uploaded(
        t,
        orgAdmin.sub,
        csvOf([['Del', 'Me', 'delete.me@example.test']]),
      );
      const added = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
      assert.equal(added.statusCode, 201, added.body);
      const id = added.json<BulkUserResult>().users[0]!.id;

      const res = await del(`/api/v1/user/${id}`, orgAdmin.sub);
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(await count(t.db, 'users where id = $1', [id]), 0);
      const seats = await t.db.query<{ seats_used: number }>(
        'select seats_used from license_blocks where id = $1',
        [license],
      );
      assert.equal(seats.rows[0]!.seats_used, 0);
      const items = await t.db.query<{ kind: string }>(
        'select kind from outbox where key = $1 order by id',
        [`user:${id}`],
      );
      assert.deepEqual(
        items.rows.map((r) => r.kind),
        ['identity.create_user', 'identity.delete_user'],
      );
      assert.equal(
        await count(
          t.db,
          `audit_log where entity_type = 'user' and entity_id = $1 and action = 'delete'`,
          [id],
        ),
        1,
      );
      assert.equal((await del(`/api/v1/user/${id}`, orgAdmin.sub)).statusCode, 404);
    });

    test('nobody deletes themselves; organisation administrators cannot delete global ones or other organisations', async () => {
      const self = await del(`/api/v1/user/${orgAdmin.sub}`, orgAdmin.sub);
      assert.equal(self.statusCode, 400);
      assert.deepEqual(self.json(), { non_field_errors: ['You cannot delete your own account.'] });
      const selfSys = await del(`/api/v1/user/${sysAdmin.sub}`, sysAdmin.sub);
      assert.equal(selfSys.statusCode, 400);
      assert.equal((await del(`/api/v1/user/${otherLearner.sub}`, orgAdmin.sub)).statusCode, 404);
      assert.equal((await del(`/api/v1/user/${learner.sub}`, learner.sub)).statusCode, 403);
      assert.equal(
        await count(t.db, 'users where id = any($1::uuid[])', [
          [orgAdmin.sub, sysAdmin.sub, otherLearner.sub, learner.sub],
        ]),
        4,
      );
    });

    test('a global administrator in an organisation is deleted only while another one remains', async () => {
      const second = await newUser('second.admin@example.test', 'sys admin');
      const res = await del(`/api/v1/user/${second}`, orgAdmin.sub);
      assert.equal(res.statusCode, 403, 'an organisation administrator cannot remove a global one');
      const ok = await del(`/api/v1/user/${second}`, sysAdmin.sub);
      assert.equal(ok.statusCode, 204, ok.body);
    });

    test("GET and DELETE a user's licences", async () => {
      const license = await createLicense(t.db, demo, { seats: 5, name: 'Unassign me' });
      const id = await newUser('licensed@example.test');
      await t.db.query(
        'insert into license_block_users (license_block_id, user_id) values ($1, $2)',
        [license, id],
      );
      const list = await get(`/api/v1/user/${id}/license-block`, orgAdmin.sub);
      assert.equal(list.statusCode, 200, list.body);
      const page =
        list.json<
          PagedResult<{ id: number; licenseName: string; seatsUsed: number; isCurrent: boolean }>
        >();
      assert.deepEqual(
        page.results.map((l) => [l.id, l.licenseName, l.seatsUsed, l.isCurrent]),
        [[license, 'Unassign me', 1, true]],
      );
      assert.equal(
        (await get(`/api/v1/user/${otherLearner.sub}/license-block`, orgAdmin.sub)).statusCode,
        404,
      );

      const foreignLicense = await createLicense(t.db, other);
      assert.equal(
        (await del(`/api/v1/user/${id}/license-block/${foreignLicense}`, orgAdmin.sub)).statusCode,
        404,
      );
      const res = await del(`/api/v1/user/${id}/license-block/${license}`, orgAdmin.sub);
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(await count(t.db, 'license_block_users where user_id = $1', [id]), 0);
      assert.equal(
        (await del(`/api/v1/user/${id}/license-block/${license}`, orgAdmin.sub)).statusCode,
        404,
      );
    });
  });

  /** A Demo Hospital user inserted directly (id = sub, as demo accounts). */
  async function newUser(email: string, role = 'learner'): Promise<string> {
    const id = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, $2, 'New', 'User', $3, (select id from roles where name = $4))`,
      [id, email, demo, role],
    );
    return id;
  }
});
