import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AuditEntry, Organisation, PagedResult } from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { licenseInput, organisationId, organisationInput } from '../organisation/admin-fixtures';

const sysAdmin = account('sys admin');
const orgAdmin = account('org admin', 'Demo Hospital');
const educator = account('educator', 'Demo Hospital');
const learner = account('learner', 'Demo Hospital');

describe('GET /api/v1/audit', () => {
  let t: TestApp;
  let demo: number;
  let other: number;
  let created: Organisation;

  const get = async (as: { sub: string }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await authHeader(as.sub) });
  const write = async (as: { sub: string }, method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({
      method,
      url,
      headers: { ...(await authHeader(as.sub)), ...xsrfHeaders() },
      payload: { ...payload },
    });
  const entries = (res: { json<T>(): T }) => res.json<PagedResult<AuditEntry>>().results;

  before(async () => {
    t = await buildTestApp();
    demo = await organisationId(t.db, 'Demo Hospital');
    other = await organisationId(t.db, 'Other College');
    // One write in each organisation, by each kind of administrator, and a new organisation.
    const own = await write(orgAdmin, 'PUT', `/api/v1/organisation/${demo}`, {
      ...(await organisationInput(t.db, { name: 'Demo Hospital', city: 'York' })),
    });
    assert.equal(own.statusCode, 200, own.body);
    const licence = await write(
      sysAdmin,
      'POST',
      `/api/v1/organisation/${other}/license-block`,
      await licenseInput(t.db),
    );
    assert.equal(licence.statusCode, 201, licence.body);
    const res = await write(sysAdmin, 'POST', '/api/v1/organisation', {
      ...(await organisationInput(t.db)),
    });
    created = res.json<Organisation>();
  });
  after(() => t.close());

  test('a global administrator reads every entry, newest first, with who, what, when', async () => {
    const res = await get(sysAdmin, '/api/v1/audit');
    assert.equal(res.statusCode, 200, res.body);
    const list = entries(res);
    assert.deepEqual(
      list.map((e) => [e.action, e.entityType, e.organisation]),
      [
        ['create', 'organisation', created.id],
        ['create', 'license_block', other],
        ['update', 'organisation', demo],
      ],
    );
    const [newest, , oldest] = list;
    assert.equal(newest!.actorEmail, sysAdmin.email);
    assert.equal(newest!.actorName, 'Sam Sysadmin');
    assert.equal(newest!.before, null);
    assert.deepEqual(newest!.after, created);
    assert.equal(oldest!.actorEmail, orgAdmin.email);
    assert.equal(oldest!.organisationName, 'Demo Hospital');
    assert.equal((oldest!.before as Organisation).city, 'London');
    assert.equal((oldest!.after as Organisation).city, 'York');
    assert.ok(Date.parse(newest!.at) >= Date.parse(oldest!.at));
  });

  test('narrowed by organisation, entity type and filter; ordered and paged', async () => {
    const byOrg = entries(await get(sysAdmin, `/api/v1/audit?organisation=${other}`));
    assert.deepEqual(
      byOrg.map((e) => e.entityType),
      ['license_block'],
    );
    const byType = entries(await get(sysAdmin, '/api/v1/audit?entityType=organisation'));
    assert.equal(byType.length, 2);
    const byActor = entries(await get(sysAdmin, '/api/v1/audit?filter=orgadmin@demo'));
    assert.equal(byActor.length, 1);
    const oldestFirst = entries(await get(sysAdmin, '/api/v1/audit?ordering=at'));
    assert.equal(oldestFirst[0]!.actorEmail, orgAdmin.email);
    const past = await get(sysAdmin, '/api/v1/audit?page=9');
    assert.deepEqual(past.json(), { detail: 'Invalid page.' });
    const badType = await get(sysAdmin, '/api/v1/audit?entityType=password');
    assert.equal(badType.statusCode, 400);
  });

  test("an organisation administrator reads only their own organisation's entries", async () => {
    const own = await get(orgAdmin, '/api/v1/audit');
    assert.equal(own.statusCode, 200);
    assert.deepEqual(
      entries(own).map((e) => e.organisation),
      [demo],
    );
    const explicit = await get(orgAdmin, `/api/v1/audit?organisation=${demo}`);
    assert.deepEqual(entries(explicit), entries(own));
    assert.equal((await get(orgAdmin, `/api/v1/audit?organisation=${other}`)).statusCode, 404);
    assert.equal((await get(orgAdmin, `/api/v1/audit?organisation=${created.id}`)).statusCode, 404);
  });

  test("an organisation's list holds the entries about its users and licences, not others'", async () => {
    const mark = (await get(sysAdmin, '/api/v1/audit')).json<PagedResult<AuditEntry>>().results[0]!
      .id;
    // A Demo Hospital learner renamed, a seat of a Demo Hospital licence freed and given back.
    const res = await write(orgAdmin, 'PUT', `/api/v1/user/${learner.sub}`, {
      firstName: 'Lena',
      lastName: 'Renamed',
      email: learner.email,
      userRole: 1,
    });
    assert.equal(res.statusCode, 200, res.body);
    const seat = await t.db.query<{ license_block_id: number }>(
      'select license_block_id from license_block_users where user_id = $1 limit 1',
      [learner.sub],
    );
    const licenseId = seat.rows[0]!.license_block_id;
    const freed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${learner.sub}/license-block/${licenseId}`,
      headers: { ...(await authHeader(orgAdmin.sub)), ...xsrfHeaders() },
    });
    assert.equal(freed.statusCode, 204, freed.body);

    const newer = (list: AuditEntry[]) => list.filter((e) => e.id > mark);
    const own = newer(entries(await get(orgAdmin, `/api/v1/audit?organisation=${demo}`)));
    assert.deepEqual(
      own.map((e) => [e.action, e.entityType]),
      [
        ['unassign', 'license_block_user'],
        ['update', 'user'],
      ],
    );
    assert.ok(own.every((e) => e.organisation === demo && e.organisationName === 'Demo Hospital'));
    assert.equal((own[1]!.after as { lastName: string }).lastName, 'Renamed');
    assert.equal(
      newer(entries(await get(sysAdmin, `/api/v1/audit?organisation=${other}`))).length,
      0,
      "none of it in the other organisation's list",
    );
  });

  test('another organisation is not found for an organisation administrator, in any form', async () => {
    for (const url of [
      `/api/v1/audit?organisation=${other}`,
      `/api/v1/audit?organisation=${other}&entityType=user`,
      `/api/v1/audit?organisation=${other}&page=2`,
    ]) {
      assert.equal((await get(orgAdmin, url)).statusCode, 404, url);
    }
  });

  test('learners and educators are refused', async () => {
    assert.equal((await get(learner, '/api/v1/audit')).statusCode, 403);
    assert.equal((await get(educator, '/api/v1/audit')).statusCode, 403);
  });

  test('a refused write records nothing', async () => {
    const before = (await get(sysAdmin, '/api/v1/audit')).json<PagedResult<AuditEntry>>().count;
    const refused = await write(sysAdmin, 'POST', `/api/v1/organisation/${demo}/license-block`, {
      ...(await licenseInput(t.db)),
      entitlements: [999_999],
    });
    assert.equal(refused.statusCode, 400);
    const after = (await get(sysAdmin, '/api/v1/audit')).json<PagedResult<AuditEntry>>().count;
    assert.equal(after, before);
  });

  test('an entry still says who acted after that user is deleted', async () => {
    const id = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, role_id)
       values ($1, 'gone@admin.test', 'Gone', 'Admin', (select id from roles where name = 'sys admin'))`,
      [id],
    );
    const res = await write({ sub: id }, 'POST', '/api/v1/organisation', {
      ...(await organisationInput(t.db)),
    });
    assert.equal(res.statusCode, 201, res.body);
    await t.db.query('delete from users where id = $1', [id]);
    const [entry] = entries(await get(sysAdmin, '/api/v1/audit'));
    assert.equal(entry!.actorId, null);
    assert.equal(entry!.actorName, 'Gone Admin');
    assert.equal(entry!.actorEmail, 'gone@admin.test');
  });
});
