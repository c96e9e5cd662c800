import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CurrentUser } from '@portal/contract';
import {
  DEMO_ACCOUNTS,
  DEMO_BRIGHTSPACE_ACCOUNTS,
  DEMO_BRIGHTSPACE_ORGANISATION,
} from '@portal/contract/demo-accounts';
import { DEFAULT_LMS_URL } from '../../src/demo/demo-lti';
import { authHeader, buildTestApp, type TestApp } from '../helper';
import { startTestBrightspace, type TestBrightspace } from '../brightspace/brightspace-server';

/**
 * The demo data a newcomer meets after `npm start` (issue #25 point 6): Demo Hospital's accounts
 * go straight to their home page, and the Brightspace flow belongs to an organisation of its own.
 * The app runs with Brightspace configured, as `npm start` runs it.
 */
describe('demo data: who meets Brightspace', () => {
  let t: TestApp;
  let bs: TestBrightspace;

  before(async () => {
    bs = await startTestBrightspace();
    t = await buildTestApp({ brightspace: bs.config });
  });
  after(async () => {
    await t.close();
    await bs.close();
  });

  const lmsOf = async (organisation: string) =>
    (
      await t.db.query<{ code: string }>(
        `select l.code from organisations o join lookups l on l.id = o.learning_management_system_id
          where o.name = $1`,
        [organisation],
      )
    ).rows[0]?.code;

  const whoami = async (sub: string) => {
    const res = await t.app.inject({ url: '/api/v1/user/whoami', headers: await authHeader(sub) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<CurrentUser>();
  };

  test('Demo Hospital is not a Brightspace organisation; Demo Brightspace College is', async () => {
    assert.equal(await lmsOf('Demo Hospital'), 'moodle');
    assert.equal(await lmsOf('Other College'), 'moodle');
    assert.equal(await lmsOf(DEMO_BRIGHTSPACE_ORGANISATION), 'brightspace');
  });

  test('the five main demo accounts reach their home page: no Brightspace sign-in, no mismatch', async () => {
    assert.equal(DEMO_ACCOUNTS.length, 5);
    for (const account of DEMO_ACCOUNTS) {
      const user = await whoami(account.sub);
      assert.equal(user.email, account.email);
      assert.equal(user.isBrightspaceAuthRequired, false, account.email);
      assert.equal(user.brightspaceUserMismatch, false, account.email);
    }
  });

  test("the college's accounts exist and hold a seat; its learner and educator must sign in to Brightspace", async () => {
    assert.deepEqual(
      DEMO_BRIGHTSPACE_ACCOUNTS.map((a) => [a.email, a.role]),
      [
        ['learner@brightspace.test', 'learner'],
        ['educator@brightspace.test', 'educator'],
        ['orgadmin@brightspace.test', 'org admin'],
      ],
    );
    for (const account of DEMO_BRIGHTSPACE_ACCOUNTS) {
      const user = await whoami(account.sub);
      assert.equal(user.organisationName, DEMO_BRIGHTSPACE_ORGANISATION, account.email);
      // Administrators are exempt (api/README.md, Brightspace OAuth).
      assert.equal(user.isBrightspaceAuthRequired, account.role !== 'org admin', account.email);
      const seats = await t.db.query<{ license_name: string }>(
        `select lb.license_name from license_block_users s
           join license_blocks lb on lb.id = s.license_block_id where s.user_id = $1`,
        [account.sub],
      );
      assert.deepEqual(
        seats.rows.map((r) => r.license_name),
        ['Demo Brightspace College 2026'],
        account.email,
      );
    }
  });

  test('the learning-platform stand-in is registered once per organisation, each with its own client', async () => {
    const platforms = await t.db.query<{ client_id: string; deployment_ids: string[]; name: string }>(
      `select p.client_id, p.deployment_ids, o.name from lti_platforms p
         join organisations o on o.id = p.organisation_id
        where p.issuer = $1 order by p.client_id`,
      [DEFAULT_LMS_URL],
    );
    assert.deepEqual(
      platforms.rows.map((r) => ({ ...r })),
      [
        { client_id: 'portal-tool', deployment_ids: ['demo-deployment'], name: 'Demo Hospital' },
        {
          client_id: 'portal-tool-brightspace',
          deployment_ids: ['brightspace-deployment'],
          name: DEMO_BRIGHTSPACE_ORGANISATION,
        },
      ],
    );
  });
});
