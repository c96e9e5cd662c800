import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slowRequest, startApiProcess } from './api-process';

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
      assert.equal(health.headers.get('connection'), 'close');

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
