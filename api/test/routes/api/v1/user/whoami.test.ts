import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PERMISSIONS, type CurrentUser } from '@portal/contract';
import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import { authHeader, buildTestApp, type TestApp } from '../../../../helper';

const LEARNER = ['global.access_sims', 'global.contact_vmc_support', 'global.view_own_reports'];
const EDUCATOR = [...LEARNER, 'global.view_org_reports'];
const ORG_ADMIN = [
  ...EDUCATOR,
  'global.client_access_admin_section',
  'global.export_user_data',
  'global.remove_user',
  'global.unassign_license',
  'global.update_org',
  'global.update_user',
  'global.create_user',
  'global.view_license_block',
  'global.view_org',
  'global.view_user',
];
const EXPECTED: Record<string, string[]> = {
  learner: LEARNER,
  educator: EDUCATOR,
  'org admin': ORG_ADMIN,
  'sys admin': [...PERMISSIONS],
};

describe('GET /api/v1/user/whoami', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  for (const account of DEMO_ACCOUNTS) {
    test(`answers ${account.email} (${account.role}) with the permissions of their role`, async () => {
      const res = await t.app.inject({
        url: '/api/v1/user/whoami',
        headers: await authHeader(account.sub),
      });
      assert.equal(res.statusCode, 200);
      const user = res.json<CurrentUser>();
      assert.equal(user.id, account.sub);
      assert.equal(user.email, account.email);
      assert.equal(user.firstName, account.firstName);
      assert.equal(user.lastName, account.lastName);
      assert.equal(user.language, account.language);
      assert.equal(user.roleName, account.role);
      assert.equal(user.organisationName, account.organisation);
      assert.equal(user.isBrightspaceAuthRequired, false);
      assert.equal(user.brightspaceUserMismatch, false);
      assert.deepEqual([...user.permissions].sort(), [...(EXPECTED[account.role] ?? [])].sort());
    });
  }

  test('the sys admin holds all 21 permissions', async () => {
    const sysadmin = DEMO_ACCOUNTS.find((a) => a.role === 'sys admin')!;
    const res = await t.app.inject({
      url: '/api/v1/user/whoami',
      headers: await authHeader(sysadmin.sub),
    });
    assert.equal(res.json<CurrentUser>().permissions.length, 21);
  });
});
