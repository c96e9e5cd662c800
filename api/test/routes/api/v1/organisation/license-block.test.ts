import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INVALID_PAGE,
  LICENSE_BLOCK_MESSAGES as M,
  type LicenseBlock,
  type LicensedUser,
  type LookupItem,
  type PagedResult,
  type Product,
} from '@portal/contract';
import { createLicenseRepository } from '../../../../../src/repositories/license-repository';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import {
  dayFromToday,
  durationId,
  entitlementId,
  licenseInput,
  licenseOf,
  organisationId,
} from '../organisation/admin-fixtures';

const sysAdmin = account('sys admin');
const orgAdmin = account('org admin', 'Demo Hospital');
const learner = account('learner', 'Demo Hospital');
const educator = account('educator', 'Demo Hospital');
const otherLearner = account('learner', 'Other College');

const actor = { id: sysAdmin.sub, firstName: 'Sam', lastName: 'Sysadmin', email: sysAdmin.email };

describe('licence blocks', () => {
  let t: TestApp;
  let demo: number;
  let other: number;
  let demoLicense: number;
  let otherLicense: number;

  before(async () => {
    t = await buildTestApp();
    demo = await organisationId(t.db, 'Demo Hospital');
    other = await organisationId(t.db, 'Other College');
    demoLicense = await licenseOf(t.db, 'Demo Hospital');
    otherLicense = await licenseOf(t.db, 'Other College');
  });
  after(() => t.close());

  const get = async (as: { sub: string }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await authHeader(as.sub) });
  const write = async (as: { sub: string }, method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({
      method,
      url,
      headers: { ...(await authHeader(as.sub)), ...xsrfHeaders() },
      payload: { ...payload },
    });
  const base = (org: number) => `/api/v1/organisation/${org}/license-block`;
  const create = async (org: number, overrides: Parameters<typeof licenseInput>[1] = {}) => {
    const res = await write(sysAdmin, 'POST', base(org), await licenseInput(t.db, overrides));
    assert.equal(res.statusCode, 201, res.body);
    return res.json<LicenseBlock>();
  };
  const inputOf = (license: LicenseBlock) => ({
    licenseName: license.licenseName,
    salesReference: license.salesReference,
    numberOfSeats: license.numberOfSeats,
    startDate: license.startDate,
    expiryDate: license.expiryDate,
    isActive: license.isActive,
    duration: license.duration,
    entitlements: license.entitlements,
  });

  describe('GET …/license-block', () => {
    test("an organisation administrator lists their organisation's licences with the seats in use", async () => {
      const res = await get(orgAdmin, base(demo));
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json<PagedResult<LicenseBlock>>();
      assert.deepEqual(
        page.results.map((l) => [l.licenseName, l.seatsUsed, l.numberOfSeats, l.isCurrent]),
        [
          ['Demo Hospital 2024', 1, 10, false],
          ['Demo Hospital 2026', 3, 50, true],
        ],
      );
      const current = page.results[1]!;
      assert.equal(current.organisation, demo);
      assert.equal(current.startDate, '2026-01-01');
      assert.equal(current.expiryDate, '2027-12-31');
      assert.equal(current.entitlements.length, 5);
    });

    test('another organisation is 404 for its administrator, the learner is refused', async () => {
      assert.equal((await get(orgAdmin, base(other))).statusCode, 404);
      assert.equal((await get(learner, base(demo))).statusCode, 403);
      assert.equal((await get(sysAdmin, base(999_999))).statusCode, 404);
    });

    test('filter, ordering and Invalid page.', async () => {
      const filtered = await get(orgAdmin, `${base(demo)}?filter=SO-2024`);
      assert.deepEqual(
        filtered.json<PagedResult<LicenseBlock>>().results.map((l) => l.licenseName),
        ['Demo Hospital 2024'],
      );
      const bySeats = await get(orgAdmin, `${base(demo)}?ordering=-numberOfSeats`);
      assert.deepEqual(
        bySeats.json<PagedResult<LicenseBlock>>().results.map((l) => l.numberOfSeats),
        [50, 10],
      );
      const past = await get(orgAdmin, `${base(demo)}?page=2`);
      assert.equal(past.statusCode, 404);
      assert.deepEqual(past.json(), { detail: INVALID_PAGE });
    });
  });

  describe('GET …/license-block/{licenseId}', () => {
    test('reads one licence; its id under another organisation is 404', async () => {
      const res = await get(orgAdmin, `${base(demo)}/${demoLicense}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json<LicenseBlock>().licenseName, 'Demo Hospital 2026');
      assert.equal((await get(orgAdmin, `${base(other)}/${otherLicense}`)).statusCode, 404);
      assert.equal((await get(sysAdmin, `${base(demo)}/${otherLicense}`)).statusCode, 404);
      assert.equal((await get(sysAdmin, `${base(other)}/${otherLicense}`)).statusCode, 200);
    });
  });

  describe('POST …/license-block', () => {
    test('a global administrator creates a licence; the expiry follows the duration; audited', async () => {
      const vr = await entitlementId(t.db, 'radiography', 'VR');
      const desktop = await entitlementId(t.db, 'radiography', 'Desktop');
      const created = await create(other, {
        // Inactive, so that Other College's catalogue below still hangs on its one licence.
        isActive: false,
        startDate: '2026-03-01',
        duration: await durationId(t.db, 'P2Y'),
        entitlements: [vr, desktop, vr],
      });
      assert.equal(created.expiryDate, '2028-02-29');
      assert.equal(created.seatsUsed, 0);
      assert.equal(created.organisation, other);
      assert.deepEqual(
        created.entitlements,
        [vr, desktop].sort((a, b) => a - b),
      );
      const audit = await t.db.query<{ action: string; organisation_id: number; after: unknown }>(
        `select action, organisation_id, after from audit_log
          where entity_type = 'license_block' and entity_id = $1`,
        [String(created.id)],
      );
      assert.deepEqual(audit.rows, [{ action: 'create', organisation_id: other, after: created }]);
    });

    test('an expiry date sent is kept; one before the start is refused', async () => {
      const kept = await create(demo, { startDate: '2026-01-01', expiryDate: '2026-06-30' });
      assert.equal(kept.expiryDate, '2026-06-30');
      const res = await write(
        sysAdmin,
        'POST',
        base(demo),
        await licenseInput(t.db, { startDate: '2026-01-01', expiryDate: '2025-12-31' }),
      );
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { expiryDate: [M.expiryBeforeStart] });
    });

    test('the rules of §5: required fields, seats ≥ 0, at least one entitlement', async () => {
      const count = async () =>
        (await t.db.query<{ n: number }>('select count(*)::int as n from license_blocks')).rows[0]!
          .n;
      const before = await count();
      const missing = await write(sysAdmin, 'POST', base(demo), { salesReference: 'x' });
      assert.equal(missing.statusCode, 400);
      const errors = missing.json<Record<string, string[]>>();
      for (const field of [
        'licenseName',
        'duration',
        'startDate',
        'numberOfSeats',
        'entitlements',
      ]) {
        assert.deepEqual(errors[field], ['This field is required.'], field);
      }
      const valid = await licenseInput(t.db);
      const negative = await write(sysAdmin, 'POST', base(demo), { ...valid, numberOfSeats: -1 });
      assert.equal(negative.statusCode, 400);
      assert.ok(negative.json<Record<string, string[]>>().numberOfSeats);
      const none = await write(sysAdmin, 'POST', base(demo), { ...valid, entitlements: [] });
      assert.equal(none.statusCode, 400);
      assert.ok(none.json<Record<string, string[]>>().entitlements);
      const blank = await write(sysAdmin, 'POST', base(demo), { ...valid, licenseName: ' ' });
      assert.deepEqual(blank.json(), { licenseName: [M.blank] });
      const badDate = await write(sysAdmin, 'POST', base(demo), {
        ...valid,
        startDate: '31/12/2026',
      });
      assert.equal(badDate.statusCode, 400);
      assert.ok(badDate.json<Record<string, string[]>>().startDate);
      const ancient = await write(sysAdmin, 'POST', base(demo), {
        ...valid,
        startDate: '0001-01-01',
      });
      assert.deepEqual(ancient.json(), { startDate: [M.dateOutOfRange] });
      const beyond = await write(sysAdmin, 'POST', base(demo), {
        ...valid,
        startDate: '9999-06-01',
        duration: await durationId(t.db, 'P3Y'),
      });
      assert.deepEqual(beyond.json(), { startDate: [M.dateOutOfRange] }, 'expiry past 9999');
      assert.equal(await count(), before);
    });

    test('lookups of the wrong kind are refused: a country as duration, an unknown entitlement', async () => {
      const valid = await licenseInput(t.db);
      const country = (
        await t.db.query<{ id: number }>(`select id from lookups where field = 'country' limit 1`)
      ).rows[0]!.id;
      const res = await write(sysAdmin, 'POST', base(demo), {
        ...valid,
        duration: country,
        entitlements: [...valid.entitlements, 999_999],
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), {
        duration: [M.invalidChoice],
        entitlements: [M.invalidChoice],
      });
    });

    test('organisation administrators may not create licences', async () => {
      const res = await write(orgAdmin, 'POST', base(demo), await licenseInput(t.db));
      assert.equal(res.statusCode, 403);
    });
  });

  describe('PUT …/license-block/{licenseId}', () => {
    test('a global administrator updates a licence; before and after are audited', async () => {
      const license = await create(demo, { numberOfSeats: 5 });
      const res = await write(sysAdmin, 'PUT', `${base(demo)}/${license.id}`, {
        ...inputOf(license),
        numberOfSeats: 7,
        salesReference: null,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<LicenseBlock>().numberOfSeats, 7);
      assert.equal(res.json<LicenseBlock>().salesReference, null);
      const audit = await t.db.query<{ before: LicenseBlock; after: LicenseBlock }>(
        `select before, after from audit_log
          where entity_type = 'license_block' and entity_id = $1 and action = 'update'`,
        [String(license.id)],
      );
      assert.equal(audit.rows[0]!.before.numberOfSeats, 5);
      assert.equal(audit.rows[0]!.after.numberOfSeats, 7);
    });

    test('seats below those in use are refused, by the route and by the database', async () => {
      const res = await write(sysAdmin, 'PUT', `${base(demo)}/${demoLicense}`, {
        ...(await licenseInput(t.db, { licenseName: 'Demo Hospital 2026', numberOfSeats: 2 })),
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { numberOfSeats: [M.seatsBelowUsed.replace('{n}', '3')] });
      await assert.rejects(
        t.db.query('update license_blocks set number_of_seats = 2 where id = $1', [demoLicense]),
        /license_blocks_seats_check/,
      );
    });

    test('the start date is read-only while the duration is inactive (§2)', async () => {
      const inactive = await durationId(t.db, 'inactive');
      const license = await create(demo, { startDate: '2026-05-01', duration: inactive });
      assert.equal(license.expiryDate, '2026-05-01');
      assert.equal(license.isCurrent, false);
      const moved = await write(sysAdmin, 'PUT', `${base(demo)}/${license.id}`, {
        ...inputOf(license),
        startDate: '2026-06-01',
        expiryDate: null,
      });
      assert.equal(moved.statusCode, 400);
      assert.deepEqual(moved.json(), { startDate: [M.startDateReadOnly] });
      // Giving it a real duration with the same start date is allowed; then the start may move.
      const activated = await write(sysAdmin, 'PUT', `${base(demo)}/${license.id}`, {
        ...inputOf(license),
        expiryDate: null,
        duration: await durationId(t.db, 'P1Y'),
      });
      assert.equal(activated.statusCode, 200, activated.body);
      assert.equal(activated.json<LicenseBlock>().expiryDate, '2027-04-30');
      const movedNow = await write(sysAdmin, 'PUT', `${base(demo)}/${license.id}`, {
        ...inputOf(activated.json<LicenseBlock>()),
        startDate: '2026-06-01',
        expiryDate: null,
      });
      assert.equal(movedNow.statusCode, 200, movedNow.body);
    });

    test("another organisation's licence under this path is 404 and unchanged", async () => {
      const res = await write(sysAdmin, 'PUT', `${base(demo)}/${otherLicense}`, {
        ...(await licenseInput(t.db, { licenseName: 'Stolen' })),
      });
      assert.equal(res.statusCode, 404);
      const read = await get(sysAdmin, `${base(other)}/${otherLicense}`);
      assert.equal(read.json<LicenseBlock>().licenseName, 'Other College 2026');
    });

    test('organisation administrators may not update licences', async () => {
      const res = await write(orgAdmin, 'PUT', `${base(demo)}/${demoLicense}`, {
        ...(await licenseInput(t.db, { numberOfSeats: 60 })),
      });
      assert.equal(res.statusCode, 403);
    });
  });

  describe('GET …/license-block/{licenseId}/user', () => {
    test('lists the seat holders with the Licensed user fields of §3', async () => {
      const res = await get(orgAdmin, `${base(demo)}/${demoLicense}/user`);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json<PagedResult<LicensedUser>>();
      assert.deepEqual(
        page.results.map((u) => u.email),
        ['educator@demo.test', 'learner@demo.test', 'orgadmin@demo.test'],
        'by last name: Educator, Learner, Orgadmin',
      );
      const lena = page.results.find((u) => u.email === 'learner@demo.test')!;
      assert.equal(lena.fullName, 'Lena Learner');
      assert.equal(lena.roleName, 'learner');
      assert.equal(lena.organisationName, 'Demo Hospital');
      assert.deepEqual(lena.licenseNames, ['Demo Hospital 2024', 'Demo Hospital 2026']);
      const filtered = await get(orgAdmin, `${base(demo)}/${demoLicense}/user?filter=educator`);
      assert.equal(filtered.json<PagedResult<LicensedUser>>().count, 1);
    });

    test("another organisation's licence is 404", async () => {
      assert.equal((await get(orgAdmin, `${base(other)}/${otherLicense}/user`)).statusCode, 404);
      assert.equal((await get(sysAdmin, `${base(demo)}/${otherLicense}/user`)).statusCode, 404);
    });
  });

  describe('assignUsers and unassignUser (used by the user routes)', () => {
    test('assigns all or nothing, within the seats, and audits it', async () => {
      const license = await create(demo, { numberOfSeats: 2 });
      const assign = (userIds: string[]) =>
        t.db.transaction((tx) =>
          createLicenseRepository(tx).assignUsers({
            licenseBlockId: license.id,
            organisationId: demo,
            userIds,
            actor,
          }),
        );
      assert.deepEqual(await assign([learner.sub, educator.sub, orgAdmin.sub]), {
        ok: false,
        reason: 'seats',
        available: 2,
      });
      assert.deepEqual(await assign([learner.sub, learner.sub.toUpperCase()]), {
        ok: true,
        assigned: 1,
      });
      // Holding a seat already needs none: two users, one new seat.
      assert.deepEqual(await assign([learner.sub, educator.sub]), { ok: true, assigned: 1 });
      assert.deepEqual(await assign([orgAdmin.sub]), { ok: false, reason: 'seats', available: 0 });
      assert.deepEqual(await assign([otherLearner.sub]), {
        ok: false,
        reason: 'users',
        userIds: [otherLearner.sub],
      });
      const read = await get(sysAdmin, `${base(demo)}/${license.id}`);
      assert.equal(read.json<LicenseBlock>().seatsUsed, 2);
      const audit = await t.db.query<{ n: number }>(
        `select count(*)::int as n from audit_log
          where entity_type = 'license_block' and entity_id = $1 and action = 'assign'`,
        [String(license.id)],
      );
      assert.equal(audit.rows[0]!.n, 2);

      const removed = await t.db.transaction((tx) =>
        createLicenseRepository(tx).unassignUser({
          licenseBlockId: license.id,
          userId: learner.sub,
          organisationId: demo,
          actor,
        }),
      );
      assert.equal(removed, true);
      const again = await t.db.transaction((tx) =>
        createLicenseRepository(tx).unassignUser({
          licenseBlockId: license.id,
          userId: learner.sub,
          organisationId: demo,
          actor,
        }),
      );
      assert.equal(again, false);
      const foreign = await t.db.transaction((tx) =>
        createLicenseRepository(tx).unassignUser({
          licenseBlockId: license.id,
          userId: educator.sub,
          organisationId: other,
          actor,
        }),
      );
      assert.equal(foreign, false, 'not through another organisation');
      assert.equal(
        (await get(sysAdmin, `${base(demo)}/${license.id}`)).json<LicenseBlock>().seatsUsed,
        1,
      );
    });

    test('an inactive, expired or not-started ("inactive" duration) licence takes no users', async () => {
      const inactive = await create(demo, { isActive: false });
      const expired = await create(demo, { startDate: '2020-01-01', expiryDate: dayFromToday(-1) });
      const notStarted = await create(demo, { duration: await durationId(t.db, 'inactive') });
      for (const license of [inactive, expired, notStarted]) {
        const result = await t.db.transaction((tx) =>
          createLicenseRepository(tx).assignUsers({
            licenseBlockId: license.id,
            organisationId: demo,
            userIds: [learner.sub],
            actor,
          }),
        );
        assert.deepEqual(result, { ok: false, reason: 'inactive' }, license.licenseName);
      }
      const future = await create(demo, { startDate: dayFromToday(10) });
      const early = await t.db.transaction((tx) =>
        createLicenseRepository(tx).assignUsers({
          licenseBlockId: future.id,
          organisationId: demo,
          userIds: [learner.sub],
          actor,
        }),
      );
      assert.deepEqual(
        early,
        { ok: true, assigned: 1 },
        'a licence may be filled before it starts',
      );
      const elsewhere = await t.db.transaction((tx) =>
        createLicenseRepository(tx).assignUsers({
          licenseBlockId: future.id,
          organisationId: other,
          userIds: [],
          actor,
        }),
      );
      assert.deepEqual(elsewhere, { ok: false, reason: 'not-found' });
    });
  });

  describe('an expired or inactive licence grants nothing', () => {
    // Other College's learner reads the catalogue in German; the names compared here are English.
    const products = async () =>
      (await get(otherLearner, '/api/v1/product?language=en')).json<Product[]>().map((p) => p.name);
    const modes = async (productId: number) =>
      get(otherLearner, `/api/v1/user/${otherLearner.sub}/entitlement-mode/${productId}`);

    test("Other College's only licence switched off, expired or made inactive hides Radiography", async () => {
      const radiography = (
        await t.db.query<{ id: number }>(`select id from products where code = 'radiography'`)
      ).rows[0]!.id;
      const original = (await get(sysAdmin, `${base(other)}/${otherLicense}`)).json<LicenseBlock>();
      const put = async (changes: Partial<ReturnType<typeof inputOf>>) => {
        const res = await write(sysAdmin, 'PUT', `${base(other)}/${otherLicense}`, {
          ...inputOf(original),
          ...changes,
        });
        assert.equal(res.statusCode, 200, res.body);
      };
      assert.deepEqual(await products(), ['Radiography']);
      assert.deepEqual((await modes(radiography)).json(), { modes: ['Desktop'] });

      await put({ isActive: false });
      assert.deepEqual(await products(), []);
      assert.equal((await modes(radiography)).statusCode, 404);

      await put({ startDate: '2025-01-01', expiryDate: dayFromToday(-1) });
      assert.deepEqual(await products(), []);

      await put({ duration: await durationId(t.db, 'inactive'), expiryDate: dayFromToday(300) });
      assert.deepEqual(await products(), []);

      await put({});
      assert.deepEqual(await products(), ['Radiography']);
    });
  });

  describe('lookup organisation_licenses', () => {
    const lookup = (as: { sub: string }, org: number) =>
      get(as, `/api/v1/lookup?field=organisation_licenses&organisation=${org}`);

    test('lists the licences users can be given now, with the seats left', async () => {
      const res = await lookup(orgAdmin, demo);
      assert.equal(res.statusCode, 200, res.body);
      const items = res.json<LookupItem[]>();
      const names = items.map((i) => i.name);
      assert.ok(names.includes('Demo Hospital 2026'));
      assert.ok(!names.includes('Demo Hospital 2024'), 'the expired licence is not offered');
      const current = items.find((i) => i.id === demoLicense)!;
      assert.equal(current.description, '47 of 50 seats available, expires 31/12/2027');
    });

    test("another organisation's licences are 404; a learner may not list them", async () => {
      assert.equal((await lookup(orgAdmin, other)).statusCode, 404);
      assert.equal((await lookup(learner, demo)).statusCode, 404);
      assert.equal((await lookup(sysAdmin, other)).statusCode, 200);
      const missing = await get(orgAdmin, '/api/v1/lookup?field=organisation_licenses');
      assert.deepEqual(missing.json(), { organisation: ['This field is required.'] });
    });
  });
});
