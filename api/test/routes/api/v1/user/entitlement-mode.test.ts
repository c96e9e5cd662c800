import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EntitlementModes } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import {
  educator,
  learner,
  otherLearner,
  productId,
  sysadmin,
} from '../simulator/session-fixtures';

describe('GET /api/v1/user/:id/entitlement-mode/:productId', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const modes = async (sub: string, product: string | number, id = sub) => {
    const pid = typeof product === 'number' ? product : await productId(t.db, product);
    return t.app.inject({
      url: `/api/v1/user/${id}/entitlement-mode/${pid}`,
      headers: await authHeader(sub),
    });
  };
  const modesOf = async (sub: string, product: string) => {
    const res = await modes(sub, product);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<EntitlementModes>().modes;
  };

  test('a seat holder gets the modes their current licence grants, VR first', async () => {
    assert.deepEqual(await modesOf(learner.sub, 'radiography'), ['VR', 'Desktop']);
    assert.deepEqual(await modesOf(learner.sub, 'birthing'), ['VR', 'Desktop']);
    assert.deepEqual(await modesOf(educator.sub, 'radiography'), ['VR', 'Desktop']);
  });

  test("an expired licence's mode is not granted, although the learner holds a seat in it", async () => {
    assert.deepEqual(await modesOf(learner.sub, 'radiation-safety'), ['Desktop']);
  });

  test('another organisation gets only its own licence', async () => {
    assert.deepEqual(await modesOf(otherLearner.sub, 'radiography'), ['Desktop']);
    const res = await modes(otherLearner.sub, 'radiation-safety');
    assert.equal(res.statusCode, 404);
  });

  test('a global administrator may launch every product in both modes', async () => {
    for (const code of ['radiography', 'radiation-safety', 'birthing']) {
      assert.deepEqual(await modesOf(sysadmin.sub, code), ['VR', 'Desktop']);
    }
    assert.equal((await modes(sysadmin.sub, 9999)).statusCode, 404);
  });

  test('a member without a seat sees the product but may launch it in no mode', async () => {
    await t.db.query(
      `delete from license_block_users
        where user_id = $1 and license_block_id = (select id from license_blocks where license_name = 'Demo Hospital 2026')`,
      [educator.sub],
    );
    assert.deepEqual(await modesOf(educator.sub, 'radiography'), []);
  });

  test("another user's modes are not found", async () => {
    const res = await modes(learner.sub, 'radiography', otherLearner.sub);
    assert.equal(res.statusCode, 404);
  });

  test('a malformed user or product id is a field error', async () => {
    const badUser = await modes(learner.sub, 'radiography', 'not-a-uuid');
    assert.equal(badUser.statusCode, 400);
    assert.deepEqual(Object.keys(badUser.json()), ['id']);
    const badProduct = await t.app.inject({
      url: `/api/v1/user/${learner.sub}/entitlement-mode/0`,
      headers: await authHeader(learner.sub),
    });
    assert.equal(badProduct.statusCode, 400);
    assert.deepEqual(Object.keys(badProduct.json()), ['productId']);
  });

  test('it needs a signed-in user', async () => {
    const res = await t.app.inject({
      url: `/api/v1/user/${learner.sub}/entitlement-mode/1`,
    });
    assert.equal(res.statusCode, 401);
  });
});

describe('entitlement repository', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const user = async (sub: string) => {
    const found = await t.app.repos.users.findAuthUser(sub);
    assert.ok(found);
    return found;
  };
  const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

  test('a licence counts from its start date to its expiry date, both inclusive', async () => {
    const other = await user(otherLearner.sub);
    const radiography = await productId(t.db, 'radiography');
    const { entitlements } = t.app.repos;
    assert.deepEqual(await entitlements.productIdsFor(other, day('2025-12-31')), []);
    assert.deepEqual(await entitlements.productIdsFor(other, day('2026-01-01')), [radiography]);
    assert.deepEqual(await entitlements.productIdsFor(other, day('2027-12-31')), [radiography]);
    assert.deepEqual(await entitlements.productIdsFor(other, day('2028-01-01')), []);
    assert.deepEqual(await entitlements.modesFor(other, radiography, day('2027-12-31')), ['Desktop']);
    assert.deepEqual(await entitlements.modesFor(other, radiography, day('2028-01-01')), []);
  });

  test('in 2024 the old licence granted radiation safety in VR', async () => {
    const lena = await user(learner.sub);
    const rs = await productId(t.db, 'radiation-safety');
    assert.deepEqual(await t.app.repos.entitlements.modesFor(lena, rs, day('2024-06-01')), ['VR']);
    assert.deepEqual(await t.app.repos.entitlements.productIdsFor(lena, day('2024-06-01')), [rs]);
  });

  test("a seat in another organisation's licence does not count", async () => {
    const orgAdminSub = account('org admin', 'Demo Hospital').sub;
    await t.db.query(
      `delete from license_block_users
        where user_id = $1 and license_block_id = (select id from license_blocks where license_name = 'Demo Hospital 2026')`,
      [orgAdminSub],
    );
    await t.db.query(
      `insert into license_block_users (license_block_id, user_id)
       select id, $1 from license_blocks where license_name = 'Other College 2026'`,
      [orgAdminSub],
    );
    const orgAdmin = await user(orgAdminSub);
    assert.deepEqual(
      await t.app.repos.entitlements.modesFor(orgAdmin, await productId(t.db, 'radiography')),
      [],
    );
  });
});
