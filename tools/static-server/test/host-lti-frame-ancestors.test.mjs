// The host's /lti/ pages may be framed by the registered learning platforms (issue #22 point 2):
// the list from the API, cached a minute, refreshed by ETag; every other page keeps 'none'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startStaticServer } from '../index.mjs';
import { hostCspOverrides } from '../../../host/csp-overrides.mjs';
import { createLtiFrameAncestors, isFrameOrigin } from '../../../host/lti-frame-ancestors.mjs';

/** A stand-in of the API's GET /api/lti/frame-origins with an ETag per list; counts its calls. */
async function fakeApi(t, initial) {
  const api = { origins: initial, calls: [], down: false };
  const server = http.createServer((req, res) => {
    api.calls.push({ url: req.url, ifNoneMatch: req.headers['if-none-match'] ?? null });
    if (api.down) {
      res.statusCode = 503;
      return res.end();
    }
    const etag = `"${api.origins.join(',')}"`;
    res.setHeader('etag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      return res.end();
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ version: etag, origins: api.origins }));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  api.url = `http://127.0.0.1:${server.address().port}`;
  return api;
}

test("only https origins, or http on loopback, pass the host's own check", () => {
  for (const ok of [
    'https://canvas.example.edu',
    'https://lms.test:8443',
    'http://localhost:8100',
    'http://127.0.0.1:8100',
  ]) {
    assert.ok(isFrameOrigin(ok), ok);
  }
  for (const bad of [
    'http://moodle.example.edu',
    "'self'",
    '*',
    'https://a.test/path',
    'https://a.test; script-src *',
    'data:',
    42,
    null,
  ]) {
    assert.ok(!isFrameOrigin(bad), String(bad));
  }
});

test('the list is fetched once a minute at most, by ETag, and follows a change of the registrations', async (t) => {
  const api = await fakeApi(t, [
    'http://localhost:8100',
    'https://canvas.example.edu',
    'javascript:x',
  ]);
  let clock = 1_000_000;
  const errors = [];
  const source = createLtiFrameAncestors({
    apiUrl: api.url,
    now: () => clock,
    onError: (e) => errors.push(e),
  });

  assert.deepEqual(source.directive(), ["'none'"], 'nothing known before the first answer');
  await source.refresh();
  assert.equal(api.calls.length, 1, 'the directive above started the one fetch');
  assert.deepEqual(source.directive(), ['http://localhost:8100', 'https://canvas.example.edu']);

  clock += 59_000;
  source.directive();
  assert.equal(api.calls.length, 1, 'no fetch within the minute');

  clock += 2_000;
  source.directive();
  await source.refresh(); // the fetch the stale directive started
  assert.equal(api.calls.length, 2, 'a stale list is fetched again');
  assert.match(String(api.calls[1].ifNoneMatch), /localhost:8100/, 'asks with the ETag it holds');
  assert.deepEqual(
    source.directive(),
    ['http://localhost:8100', 'https://canvas.example.edu'],
    '304 keeps the list',
  );

  api.origins = ['https://brightspace.example.edu'];
  clock += 61_000;
  source.directive();
  await source.refresh();
  assert.deepEqual(
    source.directive(),
    ['https://brightspace.example.edu'],
    'a changed registration shows',
  );

  api.down = true;
  clock += 61_000;
  source.directive();
  await source.refresh();
  assert.deepEqual(
    source.directive(),
    ['https://brightspace.example.edu'],
    'an API outage keeps the last list',
  );
  assert.ok(errors.length >= 1);
});

test('keepFresh retries while the API is still starting, so the first framed page meets the list', async (t) => {
  const api = await fakeApi(t, ['http://localhost:8100']);
  api.down = true;
  const source = createLtiFrameAncestors({ apiUrl: api.url, ttlMs: 1_500 });
  await source.keepFresh();
  assert.deepEqual(source.directive(), ["'none'"], 'nothing while the API cannot answer');
  api.down = false;
  // No request asks in between (directive() would fetch itself): the timer alone fetches again.
  const deadline = Date.now() + 5_000;
  while (api.calls.length < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(api.calls.length >= 2, 'fetched again without being asked');
  // The API has the timer's request; its answer may still be on the way (a busy machine): wait
  // for that fetch (refresh() joins the one under way) before reading the list.
  await source.refresh();
  assert.deepEqual(source.directive(), ['http://localhost:8100']);
});

test('the host answers /lti/ pages with the platforms as frame-ancestors and every other page with none', async (t) => {
  const api = await fakeApi(t, ['http://localhost:8100', 'https://canvas.example.edu']);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'lti-frame-'));
  await fs.writeFile(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
  const source = createLtiFrameAncestors({ apiUrl: api.url });
  await source.refresh();
  const app = await startStaticServer({
    name: 'test-host',
    root,
    port: 0,
    spa: true,
    logger: false,
    closeOnSignals: false,
    csp: { defaultSrc: ["'self'"], scriptSrc: ["'self'"] },
    cspByPrefix: { '/lti/': () => ({ frameAncestors: source.directive() }) },
  });
  t.after(() => app.close());

  for (const page of ['/lti/launch?launchId=x', '/lti/error', '/lti/simulation/3/launch']) {
    const res = await app.inject(page);
    assert.equal(res.statusCode, 200, page);
    const csp = String(res.headers['content-security-policy']);
    assert.match(
      csp,
      /(^|;)frame-ancestors http:\/\/localhost:8100 https:\/\/canvas\.example\.edu(;|$)/,
      page,
    );
    assert.match(csp, /script-src 'self'/, `${page}: the rest of the policy stays`);
    assert.equal(
      res.headers['x-frame-options'],
      undefined,
      `${page}: X-Frame-Options cannot name origins`,
    );
  }
  for (const page of ['/', '/users', '/ltix', '/lti']) {
    const res = await app.inject(page);
    assert.match(
      String(res.headers['content-security-policy']),
      /(^|;)frame-ancestors 'none'(;|$)/,
      page,
    );
    assert.equal(res.headers['x-frame-options'], 'DENY', page);
  }
});

test("an embedded launch's sign-in returns to pages the platforms may frame; the root's stay unframed", async (t) => {
  const api = await fakeApi(t, ['http://localhost:8100', 'https://canvas.example.edu']);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'lti-sign-in-frame-'));
  const silentPage = '<!doctype html><script>parent.postMessage(1, location.origin)</script>';
  await fs.writeFile(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
  await fs.writeFile(path.join(root, 'silent-check-sso.html'), silentPage);
  await fs.mkdir(path.join(root, 'lti'));
  await fs.writeFile(path.join(root, 'lti', 'silent-check-sso.html'), silentPage);
  const ltiFrameAncestors = createLtiFrameAncestors({ apiUrl: api.url });
  const csp = { defaultSrc: ["'self'"], scriptSrc: ["'self'"] };
  const app = await startStaticServer({
    name: 'test-host',
    root,
    port: 0,
    spa: true,
    logger: false,
    closeOnSignals: false,
    csp,
    ...hostCspOverrides({ csp, silentCheckScriptHashes: ["'sha256-abc='"], ltiFrameAncestors }),
  });
  t.after(() => app.close());
  const policyOf = async (page) => {
    const res = await app.inject(page);
    assert.equal(res.statusCode, 200, page);
    return String(res.headers['content-security-policy']);
  };

  assert.match(await policyOf('/lti/silent-check-sso.html'), /frame-ancestors 'self'(;|$)/, 'no platform known yet');
  await ltiFrameAncestors.refresh();

  // The launch's sign-in comes back to /lti/auth/callback inside the platform's frame.
  assert.match(
    await policyOf('/lti/auth/callback?code=c&state=s'),
    /(^|;)frame-ancestors http:\/\/localhost:8100 https:\/\/canvas\.example\.edu(;|$)/,
  );
  // Its session check is an iframe of the framed page: every ancestor is checked, the platform too.
  const framedSilent = await policyOf('/lti/silent-check-sso.html');
  assert.match(framedSilent, /(^|;)frame-ancestors 'self' http:\/\/localhost:8100 https:\/\/canvas\.example\.edu(;|$)/);
  assert.match(framedSilent, /script-src 'self' 'sha256-abc='(;|$)/, 'its inline script runs by hash');

  // The root's return pages stay as they were: the callback unframed, the check framed by the portal only.
  assert.match(await policyOf('/auth/callback?code=c&state=s'), /(^|;)frame-ancestors 'none'(;|$)/);
  const silent = await policyOf('/silent-check-sso.html');
  assert.match(silent, /(^|;)frame-ancestors 'self'(;|$)/);
  assert.match(silent, /script-src 'self' 'sha256-abc='(;|$)/);
});
