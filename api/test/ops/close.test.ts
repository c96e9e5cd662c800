import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { buildTestApp } from '../helper';

/** Everything the server sends on `socket` until it closes the connection. */
function readAll(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/**
 * The moment the listener closes (issue #24 point 2): a connection accepted just before, whose
 * request head was still arriving, belongs to this copy; nobody resends it elsewhere (a load
 * balancer retries only what never reached an instance). It is answered in full, with
 * `Connection: close`, not refused with Fastify's default 503.
 */
test('a request whose head arrives while the server closes is served, then the connection closes', async () => {
  const t = await buildTestApp();
  try {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const accepted = new Promise<net.Socket>((resolve) => t.app.server.once('connection', resolve));
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const answer = readAll(socket);
    // The request has begun: the server has read (and parsed) its first line, so the close
    // does not take the connection for an idle one ...
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const serverSide = await accepted;
    while (serverSide.bytesRead === 0) await new Promise((resolve) => setTimeout(resolve, 10));

    t.app.lifecycle.drain();
    const closed = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // ... the listener is closed: a new connection goes elsewhere ...
    await assert.rejects(
      new Promise((resolve, reject) => net.connect(Number(port), '127.0.0.1').on('connect', resolve).on('error', reject)),
      { code: 'ECONNREFUSED' },
    );
    // ... and the rest of its head arrives now (no half-close: the server is to end the connection).
    socket.write('Accept: application/json\r\n\r\n');
    const response = await answer;
    assert.match(response, /^HTTP\/1\.1 200 /);
    assert.match(response, /\r\nconnection: close\r\n/i);
    assert.match(response, /"status":"ok"/);
    await closed;
  } finally {
    await t.close();
  }
});
