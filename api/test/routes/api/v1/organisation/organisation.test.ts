import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INVALID_PAGE,
  ORGANISATION_MESSAGES as M,
  type AuditEntry,
  type Organisation,
  type PagedResult,
} from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { organisationId, organisationInput } from './admin-fixtures';

const sysAdmin = account('sys admin');
const orgAdmin = account('org admin', 'Demo Hospital');
const learner = account('learner', 'Demo Hospital');

describe('organisations', () => {
  let t: TestApp;
  let demo: number;
  let other: number;

  before(async () => {
    t = await buildTestApp();
    demo = await organisationId(t.db, 'Demo Hospital');
    other = await organisationId(t.db, 'Other College');
  });
  after(() => t.close());

  const get = async (as: { sub: string }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await authHeader(as.sub) });
  const write = async (
    as: { sub: string },
    method: 'POST' | 'PUT',
    url: string,
    payload: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(await authHeader(as.sub)), ...xsrfHeaders() },
      payload,
    });
  const auditOf = async (entityId: number) =>
    (
      await t.db.query<{ action: string; actor_email: string; before: unknown; after: unknown }>(
        `select action, actor_email, before, after from audit_log
          where entity_type = 'organisation' and entity_id = $1 order by id`,
        [String(entityId)],
      )
    ).rows;

  describe('GET /api/v1/organisation', () => {
    test('a global administrator sees every organisation, paged DRF-style and sorted by name', async () => {
      const res = await get(sysAdmin, '/api/v1/organisation');
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json<PagedResult<Organisation>>();
      assert.equal(page.totalPages, 1);
      assert.equal(page.count, page.results.length);
      const names = page.results.map((o) => o.name);
      assert.ok(names.includes('Demo Hospital') && names.includes('Other College'));
      assert.deepEqual(
        names,
        [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      const demoRow = page.results.find((o) => o.id === demo)!;
      assert.equal(demoRow.isActive, true);
      assert.equal(demoRow.city, 'London');
      assert.equal(typeof demoRow.country, 'number');
    });

    test('an organisation administrator sees only their own organisation', async () => {
      const res = await get(orgAdmin, '/api/v1/organisation');
      assert.equal(res.statusCode, 200);
      const page = res.json<PagedResult<Organisation>>();
      assert.deepEqual(
        page.results.map((o) => o.id),
        [demo],
      );
      assert.equal(page.count, 1);
      const search = await get(orgAdmin, '/api/v1/organisation?filter=Other');
      assert.equal(search.json<PagedResult<Organisation>>().count, 0);
    });

    test('filter, ordering and pages work; a page past the end is "Invalid page."', async () => {
      const filtered = await get(sysAdmin, '/api/v1/organisation?filter=berlin');
      assert.deepEqual(
        filtered.json<PagedResult<Organisation>>().results.map((o) => o.name),
        ['Other College'],
      );
      const desc = await get(sysAdmin, '/api/v1/organisation?ordering=-name&pageSize=1');
      const page = desc.json<PagedResult<Organisation>>();
      assert.equal(page.results.length, 1);
      assert.ok(page.totalPages >= 2);
      const pastEnd = await get(
        sysAdmin,
        `/api/v1/organisation?page=${page.totalPages + 1}&pageSize=1`,
      );
      assert.equal(pastEnd.statusCode, 404);
      assert.deepEqual(pastEnd.json(), { detail: INVALID_PAGE });
      const badOrdering = await get(sysAdmin, '/api/v1/organisation?ordering=password');
      assert.equal(badOrdering.statusCode, 400);
      assert.ok(badOrdering.json<Record<string, string[]>>().ordering);
    });

    test('a learner is refused (the front end shows it as not found)', async () => {
      const res = await get(learner, '/api/v1/organisation');
      assert.equal(res.statusCode, 403);
    });
  });

  describe('GET /api/v1/organisation/{id}', () => {
    test('an organisation administrator reads their own organisation', async () => {
      const res = await get(orgAdmin, `/api/v1/organisation/${demo}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json<Organisation>().name, 'Demo Hospital');
    });

    test('another organisation is 404 for an organisation administrator, and an unknown id for anyone', async () => {
      assert.equal((await get(orgAdmin, `/api/v1/organisation/${other}`)).statusCode, 404);
      assert.equal((await get(sysAdmin, `/api/v1/organisation/${other}`)).statusCode, 200);
      assert.equal((await get(sysAdmin, '/api/v1/organisation/999999')).statusCode, 404);
      assert.equal((await get(learner, `/api/v1/organisation/${demo}`)).statusCode, 403);
    });

    test('an id that is no integer is a 400', async () => {
      assert.equal((await get(sysAdmin, '/api/v1/organisation/abc')).statusCode, 400);
      assert.equal((await get(sysAdmin, '/api/v1/organisation/99999999999')).statusCode, 400);
    });
  });

  describe('POST /api/v1/organisation', () => {
    test('a global administrator creates one (201), and the audit log says who and what', async () => {
      const input = await organisationInput(t.db, { city: '  ', primaryTechnicalContact: null });
      const res = await write(sysAdmin, 'POST', '/api/v1/organisation', { ...input });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json<Organisation>();
      assert.equal(created.name, input.name);
      assert.equal(created.isActive, true);
      assert.equal(created.city, null, 'a blank optional text is stored as null');
      assert.equal(created.country, input.country);
      const read = await get(sysAdmin, `/api/v1/organisation/${created.id}`);
      assert.deepEqual(read.json(), created);
      const [entry, ...more] = await auditOf(created.id);
      assert.equal(more.length, 0);
      assert.equal(entry!.action, 'create');
      assert.equal(entry!.actor_email, sysAdmin.email);
      assert.equal(entry!.before, null);
      assert.deepEqual(entry!.after, created);
    });

    test('an organisation administrator may not create organisations', async () => {
      const res = await write(orgAdmin, 'POST', '/api/v1/organisation', {
        ...(await organisationInput(t.db)),
      });
      assert.equal(res.statusCode, 403);
    });

    test('every required field of §5 is named when missing', async () => {
      const before = await t.db.query('select count(*)::int as n from organisations');
      const res = await write(sysAdmin, 'POST', '/api/v1/organisation', { city: 'Leeds' });
      assert.equal(res.statusCode, 400);
      const errors = res.json<Record<string, string[]>>();
      for (const field of [
        'name',
        'country',
        'mainContact',
        'learningManagementSystem',
        'defaultLanguage',
        'radiationUnitSystem',
        'measurementStandard',
      ]) {
        assert.deepEqual(errors[field], ['This field is required.'], field);
      }
      const after = await t.db.query('select count(*)::int as n from organisations');
      assert.deepEqual(after.rows, before.rows);
    });

    test('blank texts, ids of the wrong lookup and a taken name are refused with the field', async () => {
      const valid = await organisationInput(t.db);
      const blank = await write(sysAdmin, 'POST', '/api/v1/organisation', {
        ...valid,
        name: '   ',
        mainContact: '',
      });
      assert.equal(blank.statusCode, 400);
      assert.deepEqual(blank.json(), { name: [M.blank], mainContact: [M.blank] });

      const wrongLookups = await write(sysAdmin, 'POST', '/api/v1/organisation', {
        ...valid,
        // A language id as a country, and ids of no lookup at all.
        country: valid.defaultLanguage,
        measurementStandard: 999_999,
      });
      assert.equal(wrongLookups.statusCode, 400);
      assert.deepEqual(wrongLookups.json(), {
        country: [M.invalidChoice],
        measurementStandard: [M.invalidChoice],
      });

      const taken = await write(sysAdmin, 'POST', '/api/v1/organisation', {
        ...valid,
        name: 'demo HOSPITAL',
      });
      assert.equal(taken.statusCode, 400);
      assert.deepEqual(taken.json(), { name: [M.nameTaken] });

      const tooLong = await write(sysAdmin, 'POST', '/api/v1/organisation', {
        ...valid,
        city: 'x'.repeat(256),
      });
      assert.equal(tooLong.statusCode, 400);
      assert.ok(tooLong.json<Record<string, string[]>>().city);
    });

    test('concurrent creates of one name: exactly one wins, the others get the field error', async () => {
      const input = await organisationInput(t.db);
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          write(sysAdmin, 'POST', '/api/v1/organisation', { ...input }),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [201, 400, 400, 400, 400]);
      for (const r of results.filter((r) => r.statusCode === 400)) {
        assert.deepEqual(r.json(), { name: [M.nameTaken] });
      }
    });
  });

  describe('PUT /api/v1/organisation/{id}', () => {
    test('an organisation administrator saves their own organisation; the audit log keeps before and after', async () => {
      const input = await organisationInput(t.db, { name: 'Demo Hospital', city: 'Manchester' });
      const res = await write(orgAdmin, 'PUT', `/api/v1/organisation/${demo}`, { ...input });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<Organisation>().city, 'Manchester');
      const entry = (await auditOf(demo)).at(-1)!;
      assert.equal(entry.action, 'update');
      assert.equal(entry.actor_email, orgAdmin.email);
      assert.equal((entry.before as Organisation).city, 'London');
      assert.equal((entry.after as Organisation).city, 'Manchester');
    });

    test("another organisation's id is 404 for an organisation administrator and nothing changes", async () => {
      const input = await organisationInput(t.db, { name: 'Other College', city: 'Hacked' });
      const res = await write(orgAdmin, 'PUT', `/api/v1/organisation/${other}`, { ...input });
      assert.equal(res.statusCode, 404);
      const read = await get(sysAdmin, `/api/v1/organisation/${other}`);
      assert.equal(read.json<Organisation>().city, 'Berlin');
      assert.equal((await auditOf(other)).length, 0);
    });

    test('only a global administrator activates or deactivates an organisation', async () => {
      const input = await organisationInput(t.db, { name: 'Demo Hospital' });
      const refused = await write(orgAdmin, 'PUT', `/api/v1/organisation/${demo}`, {
        ...input,
        isActive: false,
      });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), { isActive: [M.onlyGlobalAdminActivates] });
      const unchanged = await write(orgAdmin, 'PUT', `/api/v1/organisation/${demo}`, {
        ...input,
        isActive: true,
      });
      assert.equal(unchanged.statusCode, 200);

      const created = await write(sysAdmin, 'POST', '/api/v1/organisation', {
        ...(await organisationInput(t.db)),
      });
      const id = created.json<Organisation>().id;
      const off = await write(sysAdmin, 'PUT', `/api/v1/organisation/${id}`, {
        ...(await organisationInput(t.db, { name: created.json<Organisation>().name })),
        isActive: false,
      });
      assert.equal(off.statusCode, 200);
      assert.equal(off.json<Organisation>().isActive, false);
    });

    test('renaming onto another organisation is refused; keeping the own name is not', async () => {
      const taken = await write(sysAdmin, 'PUT', `/api/v1/organisation/${other}`, {
        ...(await organisationInput(t.db, { name: 'Demo Hospital' })),
      });
      assert.equal(taken.statusCode, 400);
      assert.deepEqual(taken.json(), { name: [M.nameTaken] });
      const same = await write(sysAdmin, 'PUT', `/api/v1/organisation/${other}`, {
        ...(await organisationInput(t.db, { name: 'OTHER COLLEGE', city: 'Berlin' })),
      });
      assert.equal(same.statusCode, 200, same.body);
      assert.equal(same.json<Organisation>().name, 'OTHER COLLEGE');
    });

    test('an unknown id is 404 even for a global administrator', async () => {
      const res = await write(sysAdmin, 'PUT', '/api/v1/organisation/999999', {
        ...(await organisationInput(t.db)),
      });
      assert.equal(res.statusCode, 404);
    });
  });

  describe('the audit log of organisations', () => {
    test('is readable through GET /api/v1/audit, newest first', async () => {
      const res = await get(sysAdmin, `/api/v1/audit?organisation=${demo}&entityType=organisation`);
      assert.equal(res.statusCode, 200);
      const page = res.json<PagedResult<AuditEntry>>();
      assert.ok(page.count >= 2);
      assert.ok(
        page.results.every((e) => e.organisation === demo && e.entityType === 'organisation'),
      );
      const ids = page.results.map((e) => e.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
      );
    });
  });
});
