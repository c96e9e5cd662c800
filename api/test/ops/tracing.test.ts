import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startApiProcess } from './api-process';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** A collector's OTLP/HTTP traces endpoint, as small as it gets: it keeps every span posted (JSON). */
async function startReceiver() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
      };
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) =>
  span.attributes.find((a) => a.key === key)?.value.stringValue;

test(
  'with OTEL_EXPORTER_OTLP_ENDPOINT a request becomes a span named by its route, its statements child spans',
  { timeout: 120_000 },
  async () => {
    const receiver = await startReceiver();
    const api = await startApiProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Export within a moment instead of the default 5 s batch delay.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const res = await fetch(`${api.address}/api/lti/jwks`);
      assert.equal(res.status, 200);
      const deadline = Date.now() + 20_000;
      const server = () => receiver.spans.find((s) => s.name === 'GET /api/lti/jwks');
      while (!server() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const request = server();
      assert.ok(request, `no request span among ${receiver.spans.map((s) => s.name).join(', ')}`);
      assert.equal(attribute(request, 'http.route'), '/api/lti/jwks');
      assert.match(receiver.paths[0]!, /^POST \/v1\/traces application\/json/);
      if (process.env.TEST_DATABASE_URL) {
        // pg's spans: the key set is read from the database within the request's trace.
        while (!receiver.spans.some((s) => s.parentSpanId === request.spanId) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 100));
        const statements = receiver.spans.filter(
          (s) => s.traceId === request.traceId && s.name.startsWith('pg.query'),
        );
        assert.ok(statements.length > 0, `no database span in the request's trace`);
        assert.ok(statements.some((s) => s.parentSpanId === request.spanId));
      }
      // Probes are left out of the traces.
      await fetch(`${api.address}/readyz`);
    } finally {
      api.child.kill('SIGTERM');
      await api.exited;
      await api.dispose();
      await receiver.close();
    }
    assert.ok(!receiver.spans.some((s) => /readyz/.test(s.name)));
  },
);
