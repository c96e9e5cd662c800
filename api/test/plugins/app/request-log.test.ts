import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { captureLog, secretRequest } from '@portal/service-kit/testing';
import { account, authHeader, buildTestApp, type TestApp } from '../../helper';

/** The API's request log, read line by line as the process would write it. */
describe('request log', () => {
  let t: TestApp;
  const log = captureLog();
  const learner = account('learner', 'Demo Hospital');

  before(async () => {
    t = await buildTestApp({}, { logger: { level: 'info', stream: log.stream } });
  });
  after(() => t.close());

  test('keeps every path but no token, code, state, signature, Authorization or Cookie value', async () => {
    const requests = [
      // An authenticated call; the bearer token is real, so the request is served.
      secretRequest('/api/v1/user/whoami'),
      // Brightspace's return with code and state.
      secretRequest('/api/brightspace-auth/callback'),
      // A signed storage URL, and an unknown route (Fastify's "Route … not found" message).
      secretRequest('/api/v1/storage/files/x.png'),
      secretRequest('/api/v1/nowhere'),
    ];
    const bearer = await authHeader(learner.sub);
    const whoami = await t.app.inject({ url: requests[0]!.url, headers: { ...requests[0]!.headers, ...bearer } });
    assert.equal(whoami.statusCode, 200);
    for (const request of requests.slice(1)) await t.app.inject({ url: request.url, headers: request.headers });

    const text = log.text();
    const secrets = [...requests[0]!.values, bearer.authorization.slice('Bearer '.length)];
    for (const value of secrets) assert.ok(!text.includes(value), `log shows ${value}`);
    const urls = log.lines().flatMap((line) => (line.req ? [(line.req as { url: string }).url] : []));
    for (const request of requests) {
      assert.ok(
        urls.some((url) => url.startsWith(`${request.path}?page=2&token=[redacted]&code=[redacted]&state=[redacted]`)),
        `${request.path} is logged: ${urls.join('\n')}`,
      );
    }
  });

  test('a request has one line with the caller’s request id, the user and their organisation, and the answer echoes the id', async () => {
    const bearer = await authHeader(learner.sub);
    const whoami = await t.app.inject({
      url: '/api/v1/user/whoami',
      headers: { ...bearer, 'x-request-id': 'browser-action-42' },
    });
    assert.equal(whoami.statusCode, 200);
    assert.equal(whoami.headers['x-request-id'], 'browser-action-42');
    const me = whoami.json<{ id: string; organisationId: number | null }>();
    assert.equal(typeof me.organisationId, 'number');

    const lines = log.lines().filter((line) => line.reqId === 'browser-action-42');
    assert.equal(lines.length, 1, JSON.stringify(lines));
    const [line] = lines;
    assert.equal(line!.msg, 'request completed');
    assert.equal(line!.userId, me.id);
    assert.equal(line!.organisationId, me.organisationId);
    assert.deepEqual(line!.res, { statusCode: 200 });
    assert.equal(typeof line!.responseTime, 'number');
  });

  test('an id that is not a plain token is replaced by a fresh one; /healthz is logged at debug only', async () => {
    const junk = 'x'.repeat(65);
    const res = await t.app.inject({ url: '/api/v1/nowhere', headers: { 'x-request-id': junk } });
    const id = res.headers['x-request-id'] as string;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.ok(log.lines().some((line) => line.reqId === id && line.res));
    assert.ok(!log.lines().some((line) => line.reqId === junk));

    const health = await t.app.inject({ url: '/healthz' });
    assert.equal(health.statusCode, 200);
    // The logger is at info: the health check's debug line is not written.
    assert.ok(!log.lines().some((line) => line.reqId === health.headers['x-request-id']));
  });
});
