import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  ORGANISATION_DEACTIVATED,
  ORGANISATION_DEACTIVATED_DETAIL,
  type OrganisationDeactivated,
} from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { organisationId, organisationInput } from './admin-fixtures';

/** Issue #20 point 6: a deactivated organisation's members can do nothing until it is reactivated. */
describe('a deactivated organisation', () => {
  let t: TestApp;
  let otherCollege: number;
  const otherLearner = account('learner', 'Other College');
  const demoLearner = account('learner', 'Demo Hospital');
  const sysAdmin = account('sys admin');

  const whoami = async (sub: string) =>
    t.app.inject({ url: '/api/v1/user/whoami', headers: await authHeader(sub) });
  const setActive = async (isActive: boolean) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/organisation/${otherCollege}`,
      headers: { ...(await authHeader(sysAdmin.sub)), ...xsrfHeaders() },
      payload: await organisationInput(t.db, { name: 'Other College', isActive }),
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    t = await buildTestApp();
    otherCollege = await organisationId(t.db, 'Other College');
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'orgadmin@other.test', 'Oskar', 'Admin', $2, (select id from roles where name = 'org admin'))`,
      [randomUUID(), otherCollege],
    );
  });
  after(() => t.close());

  test("its members are refused on every call with a code and whom to contact; reactivation lets them in at once", async () => {
    // Loaded (and cached by the auth hook) while the organisation is active.
    assert.equal((await whoami(otherLearner.sub)).statusCode, 200);

    await setActive(false);
    const refused = await whoami(otherLearner.sub);
    assert.equal(refused.statusCode, 403);
    const body = refused.json<OrganisationDeactivated>();
    assert.equal(body.code, ORGANISATION_DEACTIVATED);
    assert.equal(body.detail, ORGANISATION_DEACTIVATED_DETAIL);
    assert.equal(body.language, 'de');
    assert.equal(body.organisation.name, 'Other College');
    assert.equal(body.organisation.mainContact, 'Dr. Head (Radiology)');
    assert.deepEqual(body.organisation.administrators, [{ name: 'Oskar Admin', email: 'orgadmin@other.test' }]);
    // Another route, and a write, answer the same.
    const products = await t.app.inject({ url: '/api/v1/product', headers: await authHeader(otherLearner.sub) });
    assert.equal(products.statusCode, 403);
    assert.equal(products.json<OrganisationDeactivated>().code, ORGANISATION_DEACTIVATED);

    // Other organisations' members and global administrators carry on.
    assert.equal((await whoami(demoLearner.sub)).statusCode, 200);
    assert.equal((await whoami(sysAdmin.sub)).statusCode, 200);

    await setActive(true);
    assert.equal((await whoami(otherLearner.sub)).statusCode, 200);
  });

  test('a global administrator who belongs to a deactivated organisation is not stopped', async () => {
    const id = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'sysadmin@other.test', 'Sys', 'Other', $2, (select id from roles where name = 'sys admin'))`,
      [id, otherCollege],
    );
    await setActive(false);
    try {
      assert.equal((await whoami(id)).statusCode, 200);
    } finally {
      await setActive(true);
    }
  });
});
