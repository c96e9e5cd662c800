import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startApiProcess } from './api-process';

/** One request whose body arrives in two parts, so it is in flight until `finish` is called. */
function slowRequest(address: string) {
  const body = new URLSearchParams({ id_token: 'x'.repeat(200), state: 'not-ours' }).toString();
  const url = new URL('/api/lti/launch', address);
  const req = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 20));
  return {
    answer,
    finish: () => req.end(body.slice(20)),
  };
}

test(
  'SIGTERM: unready at once, a request in flight completes, new connections are refused after the drain, exit 0',
  { timeout: 120_000 },
  async () => {
    const api = await startApiProcess({ SHUTDOWN_DRAIN_SECONDS: '2', SHUTDOWN_GRACE_SECONDS: '20' });
    try {
      assert.equal((await fetch(`${api.address}/readyz`)).status, 200);
      const inFlight = slowRequest(api.address);
      // The request's head has reached the server (its body is still coming).
      await new Promise((resolve) => setTimeout(resolve, 300));

      api.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Draining: unready, but still answering (a load balancer's late request is served) and
      // telling keep-alive clients to reconnect elsewhere.
      const ready = await fetch(`${api.address}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'unavailable', reason: 'draining' });
      assert.equal(ready.headers.get('connection'), 'close');
      const health = await fetch(`${api.address}/healthz`);
      assert.equal(health.status, 200);

      // After the drain the port is closed: a new request must go elsewhere.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await assert.rejects(fetch(`${api.address}/healthz`), (error: Error & { cause?: { code?: string } }) => {
        assert.equal(error.cause?.code, 'ECONNREFUSED');
        return true;
      });
      assert.equal(api.child.exitCode, null, 'the process waits for the request in flight');

      // The request in flight is answered in full (a refused launch redirects to the error page).
      inFlight.finish();
      assert.equal(await inFlight.answer, 302);
      assert.equal(await api.exited, 0);
    } finally {
      await api.dispose();
    }
  },
);
