import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { startBalancer, type BalancedInstance } from '../../bench/lib/balancer';
import { freePort } from '../../bench/lib/processes';

/** An instance that answers every POST 201 with its name and /readyz with `ready`, counting POSTs. */
async function upstream(name: string, ready: number) {
  const posts: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/readyz') return void res.writeHead(ready).end();
      posts.push(Buffer.concat(chunks).toString());
      res.writeHead(201).end(name);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, posts, port: (server.address() as net.AddressInfo).port };
}

const instance = (name: string, port: number, ready = true): BalancedInstance => ({
  name,
  port,
  child: null,
  ready,
  failedProbes: 0,
  probing: false,
  draining: false,
  agent: new http.Agent({ keepAlive: true }),
});

function post(port: number, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/evidence', agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * bench:restart's load balancer (issue #24 point 2) resends a request only when none of it can
 * have reached an instance, as real ones do, and never sends to the instance being stopped.
 */
describe('bench: the rolling restart load balancer', () => {
  let b: Awaited<ReturnType<typeof upstream>>;
  before(async () => {
    b = await upstream('b', 200);
  });
  after(() => b.server.close());

  test('a POST whose connection is refused is sent to another instance, once', async () => {
    b.posts.length = 0;
    // Nothing listens there any more, yet its probes have not taken it out.
    const gone = instance('a', await freePort());
    const balancer = await startBalancer([gone, instance('b', b.port)]);
    try {
      const answers = await Promise.all([1, 2, 3, 4].map((n) => post(balancer.port, `upload ${n}`)));
      assert.deepEqual(answers.map((a) => `${a.status} ${a.text}`), ['201 b', '201 b', '201 b', '201 b']);
      assert.deepEqual(b.posts.sort(), ['upload 1', 'upload 2', 'upload 3', 'upload 4']);
      assert.ok(balancer.retried.count >= 1);
      assert.equal(gone.ready, false, 'a refused connect takes the instance out at once');
    } finally {
      balancer.close();
    }
  });

  test('a connection reset after the request went out is a failure, never resent', async () => {
    b.posts.length = 0;
    // Reads the request, then resets: it may have acted on it, so nobody else may get it.
    const reset = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    reset.listen(0, '127.0.0.1');
    await once(reset, 'listening');
    const balancer = await startBalancer([
      instance('a', (reset.address() as net.AddressInfo).port),
      instance('b', b.port),
    ]);
    try {
      const answer = await post(balancer.port, 'upload');
      assert.equal(answer.status, 502);
      assert.match(answer.text, /upstream a: .*(ECONNRESET|socket hang up)/);
      assert.deepEqual(b.posts, []);
      assert.equal(balancer.retried.count, 0);
    } finally {
      balancer.close();
      reset.close();
    }
  });

  test('fail-open never picks the instance being stopped', async () => {
    // Both unready by their probes (an overloaded machine), one of them stopping.
    const unready = await upstream('u', 503);
    const stopping = await upstream('s', 503);
    const stoppingInstance = { ...instance('s', stopping.port, false), draining: true };
    const balancer = await startBalancer([stoppingInstance, instance('u', unready.port, false)]);
    try {
      const answers = await Promise.all([1, 2, 3, 4].map((n) => post(balancer.port, `upload ${n}`)));
      assert.deepEqual(answers.map((a) => a.text), ['u', 'u', 'u', 'u']);
      assert.deepEqual(stopping.posts, []);
      assert.equal(balancer.failOpen.count, 4);
    } finally {
      balancer.close();
      unready.server.close();
      stopping.server.close();
    }
  });
});
