import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import pino from 'pino';
import { logOptions, redactUrl } from '../index.mjs';
import { captureLog, secretRequest } from '../testing.mjs';

function assertNoSecrets(text, request) {
  for (const value of request.values) assert.ok(!text.includes(value), `log shows ${value}: ${text}`);
}

test('a URL keeps its path and harmless parameters; secret values are masked, X-Amz-* and Signature in any case', () => {
  assert.equal(
    redactUrl('/api/v1/session/?token=abc&page=2&X-AMZ-Credential=k%2Fs&signature=s&Signature=t&x-amz-date=1'),
    '/api/v1/session/?token=[redacted]&page=2&X-AMZ-Credential=[redacted]&signature=[redacted]&Signature=[redacted]&x-amz-date=[redacted]',
  );
  assert.equal(redactUrl('/cb?%63ode=abc&state=xyz'), '/cb?%63ode=[redacted]&state=[redacted]');
  assert.equal(redactUrl('/plain/path'), '/plain/path');
  assert.equal(redactUrl('/search?q=code&filter=token'), '/search?q=code&filter=token');
});

test('a plain Node server logging its requests through the serializer writes no secret, but the path', async (t) => {
  const log = captureLog();
  const logger = pino(logOptions({ level: 'info' }), log.stream);
  const server = http.createServer((req, res) => {
    logger.info({ req }, 'request');
    // Messages built from the URL by hand are masked too (Fastify's "Route … not found").
    logger.info(`Route ${req.method}:${req.url} not found`);
    res.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const request = secretRequest('/some/path');
  await (await fetch(`http://127.0.0.1:${server.address().port}${request.url}`, { headers: request.headers })).text();

  const text = log.text();
  assertNoSecrets(text, request);
  const [line, message] = log.lines();
  assert.match(line.req.url, /^\/some\/path\?page=2&token=\[redacted\]&/);
  assert.equal(line.req.headers.authorization, '[redacted]');
  assert.equal(line.req.headers.cookie, '[redacted]');
  assert.match(message.msg, /^Route GET:\/some\/path\?page=2&token=\[redacted\]/);
});

test('headers logged by hand, outside the request serializer, are masked by redact', () => {
  const log = captureLog();
  const logger = pino(logOptions({ level: 'info' }), log.stream);
  logger.info({ headers: { authorization: 'Bearer abc123', accept: 'text/html' } }, 'outbound');
  logger.info({ response: { headers: { 'set-cookie': 'sid=def456' } } }, 'answer');
  const text = log.text();
  assert.ok(!text.includes('abc123') && !text.includes('def456'), text);
  assert.match(text, /text\/html/);
});
