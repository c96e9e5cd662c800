import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BRIGHTSPACE_TOKEN_AUDIENCE, type RunningLms } from '@portal/lms';
import type { LtiPlatform } from '@portal/contract';
import { account, type TestApp } from '../helper';
import { userHeaders } from '../routes/api/v1/simulator/session-fixtures';
import { platformInput } from '../routes/api/v1/lti/lti-security-fixtures';
import { runRosterSync, standInLaunch, startApiWithStandIn } from './lms-browser';

/**
 * Brightspace wants its OAuth2 audience (https://api.brightspace.com/auth/token) as the `aud` of
 * the tool's client assertion, not its token URL; the stand-in's Brightspace client checks it as
 * Brightspace does (lms/README.md). Demo Brightspace College's instructor (stand-in user 108)
 * syncs the course roster, whose token request is the first service call a course makes.
 */

const educator = account('educator', 'Demo Brightspace College');
const sysAdmin = account('sys admin');

describe("the registration's token audience against the stand-in's Brightspace client", () => {
  let t: TestApp;
  let lms: RunningLms;
  let platform: LtiPlatform;

  before(async () => {
    ({ t, lms } = await startApiWithStandIn());
    const org = (
      await t.db.query<{ id: number }>(
        `select id from organisations where name = 'Demo Brightspace College'`,
      )
    ).rows[0]!.id;
    // Registered by hand without the audience first, as before the field existed.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lti/platform',
      headers: await userHeaders(sysAdmin.sub),
      payload: platformInput(org, {
        issuer: lms.url,
        clientId: 'portal-tool-brightspace',
        authLoginUrl: `${lms.url}/lti/auth`,
        accessTokenUrl: `${lms.url}/oauth2/token`,
        jwksUrl: `${lms.url}/.well-known/jwks.json`,
        deploymentIds: ['brightspace-deployment'],
      }),
    });
    assert.equal(created.statusCode, 201, created.body);
    platform = created.json<LtiPlatform>();
  });
  after(async () => {
    await t.close();
    await lms.close();
  });

  const sync = async () => runRosterSync(t, await standInLaunch(lms.url, '108'), educator.sub);

  test('with the token URL as audience Brightspace refuses the token; with its audience the sync runs', async () => {
    const refused = await sync();
    assert.equal(refused.status, 'failed');
    assert.match(refused.error ?? '', /access token.*HTTP 401/);

    const { id: _id, createdAt: _at, organisationName: _name, ...input } = platform;
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/lti/platform/${platform.id}`,
      headers: await userHeaders(sysAdmin.sub),
      payload: { ...input, tokenAudience: BRIGHTSPACE_TOKEN_AUDIENCE },
    });
    assert.equal(saved.statusCode, 200, saved.body);

    const done = await sync();
    assert.equal(done.status, 'done', done.error ?? undefined);
    assert.ok(done.added > 0, JSON.stringify(done));
  });
});
