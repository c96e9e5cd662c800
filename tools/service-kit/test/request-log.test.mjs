import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentRequestId, genReqId, isSafeRequestId, requestLogLevel, runWithRequestId } from '../index.mjs';

test('a caller’s request id is used when it is a short plain token', () => {
  for (const id of ['a', '7f3a9c2e-1b4d-4c8e-9f00-123456789abc', 'host:8080.req_1-2', 'x'.repeat(64)]) {
    assert.equal(isSafeRequestId(id), true, id);
    assert.equal(genReqId({ headers: { 'x-request-id': id } }), id);
  }
});

test('anything else gets a fresh id: too long, empty, spaces, quotes, newlines, several headers', () => {
  const refused = ['', 'x'.repeat(65), 'a b', 'a"b', 'a\nb', '<script>', 'ä', 'a/b', ['a', 'b'], undefined];
  for (const id of refused) {
    assert.equal(isSafeRequestId(id), false, JSON.stringify(id));
    const generated = genReqId({ headers: { 'x-request-id': id } });
    assert.notEqual(generated, id);
    assert.match(generated, /^[0-9a-f-]{36}$/);
  }
  assert.notEqual(genReqId({ headers: {} }), genReqId({ headers: {} }));
});

test('health checks and, on static servers, files are logged at debug unless they fail', () => {
  const level = (method, url, statusCode, staticAssets = false) =>
    requestLogLevel({ method, url, statusCode }, { staticAssets });
  assert.equal(level('GET', '/healthz', 200), 'debug');
  assert.equal(level('GET', '/readyz?probe=1', 200), 'debug');
  assert.equal(level('GET', '/healthz', 503), 'info');
  assert.equal(level('GET', '/assets/main.3f9a1c2b.js', 200, true), 'debug');
  assert.equal(level('HEAD', '/favicon.ico', 304, true), 'debug');
  assert.equal(level('GET', '/locales/de/translation.json', 200, true), 'debug');
  assert.equal(level('GET', '/assets/missing.js', 404, true), 'info');
  // Pages, API calls and anything sent are events worth a line.
  assert.equal(level('GET', '/reports', 200, true), 'info');
  assert.equal(level('POST', '/upload.json', 200, true), 'info');
  assert.equal(level('GET', '/api/v1/user/whoami', 200), 'info');
  // The API's own files (e.g. a report's image) are not static assets.
  assert.equal(level('GET', '/api/v1/storage/files/x.png', 200), 'info');
});

test('the request id is known inside its request only', async () => {
  assert.equal(currentRequestId(), undefined);
  const seen = await runWithRequestId('req-1', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return currentRequestId();
  });
  assert.equal(seen, 'req-1');
  assert.equal(currentRequestId(), undefined);
});

test('a request’s logger becomes pino’s child only when it writes, and then carries the request id', async () => {
  const { default: pino } = await import('pino');
  const { lazyChildLogger } = await import('../index.mjs');
  const lines = [];
  const root = pino({ level: 'info' }, { write: (line) => lines.push(JSON.parse(line)) });
  let children = 0;
  const child = root.child;
  root.child = function countedChild(...args) {
    children += 1;
    return child.apply(this, args);
  };

  const quiet = lazyChildLogger(root, { reqId: 'poll-1' }, {});
  quiet.debug('below the level');
  quiet.trace({ x: 1 }, 'below the level');
  assert.equal(quiet.isLevelEnabled('debug'), false);
  assert.equal(quiet.level, 'info');
  assert.equal(children, 0, 'nothing written: no child made');
  assert.equal(lines.length, 0);

  const writing = lazyChildLogger(root, { reqId: 'upload-2' }, {});
  writing.info({ size: 3 }, 'stored');
  writing.warn('twice');
  assert.equal(children, 1, 'one child for every line of the request');
  assert.deepEqual(
    lines.map(({ reqId, msg, size }) => ({ reqId, msg, size })),
    [
      { reqId: 'upload-2', msg: 'stored', size: 3 },
      { reqId: 'upload-2', msg: 'twice', size: undefined },
    ],
  );
  assert.deepEqual(writing.bindings(), { reqId: 'upload-2' });
  writing.child({ step: 'mark' }).error('nested');
  assert.deepEqual([lines[2].reqId, lines[2].step, lines[2].msg], ['upload-2', 'mark', 'nested']);

  // A route's own level needs a real child at once.
  const own = lazyChildLogger(root, { reqId: 'route-3' }, { level: 'debug' });
  own.debug('shown');
  assert.equal(lines.at(-1).msg, 'shown');
  assert.equal(lines.at(-1).reqId, 'route-3');
});
