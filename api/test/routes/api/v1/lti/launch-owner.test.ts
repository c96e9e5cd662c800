import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LtiLaunchOwner } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import { ltiLaunch, registerPlatform } from '../../../../lti/lti-fixtures';
import { createTestPlatform, serveJwks, type TestPlatform } from '../../../../lti/platform-fixtures';

const learner = account('learner', 'Demo Hospital');
const educator = account('educator', 'Demo Hospital');

/**
 * The launch page's mismatch check against the real launch route and database: the launched
 * user hears "mine" with their name, anyone else only "not mine" — the same answer as for a
 * launch that never was, so the route tells nothing about other users.
 */
describe('GET /api/v1/lti/launch/:launchId/owner', () => {
  let t: TestApp;
  let platform: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;

  before(async () => {
    t = await buildTestApp();
    platform = await createTestPlatform('https://owner-lms.test', 'owner-client');
    jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  const learnerLaunch = async () => {
    const to = await ltiLaunch(t.app, platform, { sub: 'owner-learner', email: learner.email });
    const launchId = to.searchParams.get('launchId');
    assert.ok(launchId, to.toString());
    return launchId;
  };
  const owner = async (launchId: string, sub?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/lti/launch/${launchId}/owner`,
      headers: sub ? await authHeader(sub) : {},
    });

  test('the launched user: mine, with their own name; never cached', async () => {
    const res = await owner(await learnerLaunch(), learner.sub);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json<LtiLaunchOwner>(), {
      mine: true,
      launchedAs: { name: `${learner.firstName} ${learner.lastName}` },
    });
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('another signed-in user: not mine, and no name of the launched user', async () => {
    const res = await owner(await learnerLaunch(), educator.sub);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json<LtiLaunchOwner>(), { mine: false, launchedAs: {} });
    assert.doesNotMatch(res.body, new RegExp(learner.lastName));
  });

  test('an unknown launch answers exactly as another user’s does', async () => {
    const res = await owner('00000000-0000-4000-8000-000000000000', educator.sub);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json<LtiLaunchOwner>(), { mine: false, launchedAs: {} });
  });

  test('a malformed launch id is a 400 naming the field', async () => {
    const res = await owner('not-a-uuid', learner.sub);
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /launchId/);
  });

  test('without a sign-in: 401', async () => {
    const res = await owner(await learnerLaunch());
    assert.equal(res.statusCode, 401);
  });
});
