import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { logOptions } from '../index.mjs';
import { prettyLogLine } from '../pretty.mjs';
import { captureLog } from '../testing.mjs';

/** The JSON lines a service would write for these calls, as `npm start` receives them. */
function written(write) {
  const log = captureLog();
  write(pino(logOptions({ name: 'api', level: 'info' }), log.stream));
  return log.text().split('\n').filter(Boolean);
}

test('a request line becomes one readable line with method, path, status, time, request, user and organisation', () => {
  const [line] = written((logger) =>
    logger.info(
      {
        reqId: 'req-42',
        req: { method: 'GET', url: '/api/v1/user/whoami?token=abc', headers: { cookie: 'x' } },
        res: { statusCode: 200 },
        responseTime: 12,
        userId: 'user-7',
        organisationId: 3,
      },
      'request completed',
    ),
  );
  const pretty = prettyLogLine()(line);
  assert.doesNotMatch(pretty, /\n/);
  assert.match(pretty, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/v1\/user\/whoami\?token=\[redacted\] → 200 in 12 ms {2}req=req-42 {2}user=user-7 {2}org=3$/);
  // Neither headers nor the process's pid, host and name (the launcher prefixes the service).
  assert.doesNotMatch(pretty, /cookie|pid|hostname|"api"/);
});

test('other lines keep their message and fields on the line; an error shows its stack below', () => {
  const [started, failed] = written((logger) => {
    logger.info({ port: 3000 }, 'listening');
    logger.error({ reqId: 'req-9', err: new Error('database unreachable') }, 'could not answer');
  });
  const format = prettyLogLine();
  assert.match(format(started), /INFO: listening {"port":3000}$/);
  const [first, ...stack] = format(failed).split('\n');
  assert.match(first, /ERROR: could not answer {2}req=req-9/);
  assert.ok(stack.some((l) => l.includes('database unreachable')), format(failed));
});

test('text that is not a pino line passes through unchanged', () => {
  const format = prettyLogLine();
  for (const line of ['Simulation Portal is running', '{not json', '{"no":"level"}', '[1,2]']) {
    assert.equal(format(line), line);
  }
});
