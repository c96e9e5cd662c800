import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LTI_FRAME_ORIGIN_MESSAGES,
  LTI_MESSAGES,
  type LtiFrameOrigins,
  type LtiPlatform,
  type PagedResult,
} from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { platformInput } from './lti-security-fixtures';

const sysAdmin = account('sys admin');
const orgAdmin = account('org admin', 'Demo Hospital');

describe('/api/v1/lti/platform (registration by global administrators)', () => {
  let t: TestApp;
  let demo: number;
  before(async () => {
    t = await buildTestApp();
    demo = (
      await t.db.query<{ id: number }>("select id from organisations where name = 'Demo Hospital'")
    ).rows[0]!.id;
  });
  after(() => t.close());

  const call = async (method: string, url: string, payload?: unknown, sub = sysAdmin.sub) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(await authHeader(sub)), ...xsrfHeaders() },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  test('create, read, list, update, delete; every write audited', async () => {
    const input = platformInput(demo, { deploymentIds: [' d-1 ', 'd-2', 'd-1'] });
    const created = await call('POST', '/api/v1/lti/platform', input);
    assert.equal(created.statusCode, 201, created.body);
    const platform = created.json<LtiPlatform>();
    const age = Date.now() - Date.parse(platform.createdAt);
    assert.ok(age >= 0 && age < 60_000, `registered now: ${platform.createdAt}`);
    assert.deepEqual(
      { ...platform, id: 0, createdAt: '' },
      {
        id: 0,
        createdAt: '',
        issuer: input.issuer,
        clientId: input.clientId,
        authLoginUrl: input.authLoginUrl,
        accessTokenUrl: input.accessTokenUrl,
        jwksUrl: input.jwksUrl,
        deploymentIds: ['d-1', 'd-2'],
        organisationId: demo,
        organisationName: 'Demo Hospital',
        verifiesEmail: true,
        frameOrigins: [],
        tokenAudience: null,
      },
    );

    const read = await call('GET', `/api/v1/lti/platform/${platform.id}`);
    assert.deepEqual(read.json(), platform);
    const list = await call(
      'GET',
      `/api/v1/lti/platform?organisation=${demo}&filter=${encodeURIComponent(input.clientId)}`,
    );
    assert.deepEqual(list.json<PagedResult<LtiPlatform>>(), {
      count: 1,
      totalPages: 1,
      results: [platform],
    });

    const updated = await call('PUT', `/api/v1/lti/platform/${platform.id}`, {
      ...input,
      deploymentIds: ['d-3'],
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual(updated.json<LtiPlatform>().deploymentIds, ['d-3']);

    const removed = await call('DELETE', `/api/v1/lti/platform/${platform.id}`);
    assert.equal(removed.statusCode, 204);
    assert.equal((await call('GET', `/api/v1/lti/platform/${platform.id}`)).statusCode, 404);
    assert.equal((await call('DELETE', `/api/v1/lti/platform/${platform.id}`)).statusCode, 404);

    const audit = await t.db.query<{ action: string; organisation_id: number; actor_id: string }>(
      `select action, organisation_id, actor_id::text from audit_log
        where entity_type = 'lti_platform' and entity_id = $1 order by id`,
      [String(platform.id)],
    );
    assert.deepEqual(
      audit.rows.map((r) => [r.action, r.organisation_id, r.actor_id]),
      [
        ['create', demo, sysAdmin.sub],
        ['update', demo, sysAdmin.sub],
        ['delete', demo, sysAdmin.sub],
      ],
    );
    // The organisation's Activity tab can read them.
    const activity = await call(
      'GET',
      `/api/v1/audit?organisation=${demo}&entityType=lti_platform`,
    );
    assert.equal(activity.statusCode, 200, activity.body);
  });

  test('"platform verifies e-mail addresses": off unless sent, kept as sent, audited, a boolean', async () => {
    const { verifiesEmail: _sent, ...input } = platformInput(demo);
    const absent = await call('POST', '/api/v1/lti/platform', platformInput(demo, { verifiesEmail: undefined }));
    assert.equal(absent.statusCode, 201, absent.body);
    assert.equal(absent.json<LtiPlatform>().verifiesEmail, false, 'off unless sent');
    const created = await call('POST', '/api/v1/lti/platform', { ...input, verifiesEmail: true });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = created.json<LtiPlatform>();
    assert.equal((await call('GET', `/api/v1/lti/platform/${id}`)).json<LtiPlatform>().verifiesEmail, true);

    // PUT replaces the registration: a client that does not send the mark switches it off.
    const updated = await call('PUT', `/api/v1/lti/platform/${id}`, input);
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.json<LtiPlatform>().verifiesEmail, false);
    const audit = await t.db.query<{ before: boolean; after: boolean }>(
      `select (before->>'verifiesEmail')::boolean as before, (after->>'verifiesEmail')::boolean as after
         from audit_log where entity_type = 'lti_platform' and entity_id = $1 and action = 'update'`,
      [String(id)],
    );
    assert.deepEqual(audit.rows, [{ before: true, after: false }]);

    for (const verifiesEmail of ['yes', 1, null]) {
      const bad = await call('PUT', `/api/v1/lti/platform/${id}`, { ...input, verifiesEmail });
      assert.equal(bad.statusCode, 400, `${JSON.stringify(verifiesEmail)}: ${bad.body}`);
      assert.ok(bad.json<Record<string, unknown>>().verifiesEmail, bad.body);
    }
  });

  test('issuer and client id are unique; the organisation must exist; URLs must be http(s)', async () => {
    const input = platformInput(demo);
    assert.equal((await call('POST', '/api/v1/lti/platform', input)).statusCode, 201);
    const again = await call('POST', '/api/v1/lti/platform', input);
    assert.equal(again.statusCode, 400);
    assert.deepEqual(again.json(), { clientId: [LTI_MESSAGES.platformTaken] });

    const noOrg = await call('POST', '/api/v1/lti/platform', platformInput(999_999));
    assert.equal(noOrg.statusCode, 400);
    assert.deepEqual(noOrg.json(), { organisationId: ['Select a valid choice.'] });

    const badUrl = await call('POST', '/api/v1/lti/platform', {
      ...platformInput(demo),
      jwksUrl: 'javascript:alert(1)',
    });
    assert.equal(badUrl.statusCode, 400);
    assert.ok(badUrl.json<Record<string, unknown>>().jwksUrl, badUrl.body);
  });

  test('framing origins: origins only (https, http on localhost), once each, at most 20, in frame-origins', async () => {
    const frameOrigins = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/lti/frame-origins' })).json<LtiFrameOrigins>();
    const before = await frameOrigins();
    const created = await call(
      'POST',
      '/api/v1/lti/platform',
      platformInput(demo, {
        frameOrigins: [' https://School.Instructure.com/ ', 'https://school.instructure.com', 'http://localhost:8100'],
      }),
    );
    assert.equal(created.statusCode, 201, created.body);
    const platform = created.json<LtiPlatform>();
    assert.deepEqual(platform.frameOrigins, ['https://school.instructure.com', 'http://localhost:8100']);
    const after = await frameOrigins();
    assert.notEqual(after.version, before.version, 'the ETag changes with the list');
    assert.ok(after.origins.includes('https://school.instructure.com'), JSON.stringify(after));

    const wrong = await call('PUT', `/api/v1/lti/platform/${platform.id}`, {
      ...platformInput(demo),
      frameOrigins: ['https://school.instructure.com/courses/1', 'http://canvas.example.edu', 'ftp://x.test', 'school'],
    });
    assert.equal(wrong.statusCode, 400);
    assert.deepEqual(wrong.json(), {
      frameOrigins: [
        `https://school.instructure.com/courses/1: ${LTI_FRAME_ORIGIN_MESSAGES.notOrigin}`,
        `http://canvas.example.edu: ${LTI_FRAME_ORIGIN_MESSAGES.insecure}`,
        `ftp://x.test: ${LTI_FRAME_ORIGIN_MESSAGES.notOrigin}`,
        `school: ${LTI_FRAME_ORIGIN_MESSAGES.notOrigin}`,
      ],
    });
    const tooMany = await call('PUT', `/api/v1/lti/platform/${platform.id}`, {
      ...platformInput(demo),
      frameOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.edu`),
    });
    assert.equal(tooMany.statusCode, 400);
    assert.ok(tooMany.json<Record<string, unknown>>().frameOrigins, tooMany.body);

    // PUT replaces: without the field the registration names none, and the list shrinks again.
    const cleared = await call('PUT', `/api/v1/lti/platform/${platform.id}`, platformInput(demo));
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.deepEqual(cleared.json<LtiPlatform>().frameOrigins, []);
    assert.equal((await frameOrigins()).version, before.version);
  });

  test('token audience: an http(s) URL or none ("" and null are none)', async () => {
    const aud = 'https://api.brightspace.com/auth/token';
    const created = await call('POST', '/api/v1/lti/platform', platformInput(demo, { tokenAudience: aud }));
    assert.equal(created.statusCode, 201, created.body);
    const { id, tokenAudience } = created.json<LtiPlatform>();
    assert.equal(tokenAudience, aud);
    for (const none of ['', null]) {
      const res = await call('PUT', `/api/v1/lti/platform/${id}`, platformInput(demo, { tokenAudience: none }));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<LtiPlatform>().tokenAudience, null);
    }
    const bad = await call('PUT', `/api/v1/lti/platform/${id}`, {
      ...platformInput(demo),
      tokenAudience: 'javascript:alert(1)',
    });
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json<Record<string, unknown>>().tokenAudience, bad.body);
  });

  test('organisation administrators are refused', async () => {
    const res = await call('GET', '/api/v1/lti/platform', undefined, orgAdmin.sub);
    assert.equal(res.statusCode, 403);
    const write = await call('POST', '/api/v1/lti/platform', platformInput(demo), orgAdmin.sub);
    assert.equal(write.statusCode, 403);
  });
});
