import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { once } from 'node:events';
import { HttpTarget } from '../../bench/lib/http-client';
import { Recorder } from '../../bench/lib/stats';

/**
 * The generator's clients keep connections of their own (api/docs/latency-journal.md, "Night:
 * connections accepted one per turn"): a learner's browser polls on its connections however many
 * other learners are in flight, and the shared pool stays for calls that name no client.
 */
let server: http.Server;
let port = 0;
/** The answer says which connection carried the request. */
let connections = 0;

before(async () => {
  server = http.createServer((req, res) => {
    const socket = req.socket as net.Socket & { connectionNumber?: number };
    socket.connectionNumber ??= ++connections;
    // Held a little, so that requests sent together overlap.
    setTimeout(() => res.end(String(socket.connectionNumber)), 20);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as net.AddressInfo).port;
});
after(() => server.close());

const recorder = () => new Recorder(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);

async function connectionOf(target: HttpTarget, client?: string): Promise<string> {
  const res = await target.call('GET /', performance.now(), {
    method: 'GET',
    path: '/',
    expect: [200],
    ...(client === undefined ? {} : { client }),
  });
  return res.body.toString();
}

test('each client keeps its own connections; calls without a client share the pool', async () => {
  const target = new HttpTarget('127.0.0.1', port, recorder(), 8, 1);
  try {
    // Ten rounds of three clients at once: each client is always on the same one connection.
    const seen = new Map<string, Set<string>>();
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(['a', 'b', 'c'].map(async (c) => [c, await connectionOf(target, c)] as const));
      for (const [client, connection] of answers) {
        if (!seen.has(client)) seen.set(client, new Set());
        seen.get(client)!.add(connection);
      }
    }
    assert.deepEqual([...seen.values()].map((s) => s.size), [1, 1, 1]);
    const own = [...seen.values()].map((s) => [...s][0]);
    assert.equal(new Set(own).size, 3, 'three clients, three connections');

    // A client's requests wait for its one connection rather than open another.
    const together = await Promise.all([1, 2, 3].map(() => connectionOf(target, 'a')));
    assert.deepEqual(new Set(together), new Set([own[0]]));

    // Without a client: the shared pool, never a client's connection.
    const shared = await Promise.all([1, 2, 3, 4].map(() => connectionOf(target)));
    for (const connection of shared) assert.ok(!own.includes(connection), connection);
    assert.ok(new Set(shared).size > 1, 'overlapping calls spread over the shared pool');
  } finally {
    target.close();
  }
});

test('a target made without perClient puts every call on its shared pool', async () => {
  const target = new HttpTarget('127.0.0.1', port, recorder(), 2);
  try {
    const answers = await Promise.all(['a', 'a', 'a', 'a'].map((c) => connectionOf(target, c)));
    assert.equal(new Set(answers).size, 2, 'client names ignored: both shared connections used');
  } finally {
    target.close();
  }
});
