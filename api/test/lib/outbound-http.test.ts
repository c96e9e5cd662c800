import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import {
  checkOutboundUrl,
  createOutboundClient,
  OutboundError,
  outboundPolicyFor,
  refusedAddress,
  type OutboundErrorCode,
} from '../../src/lib/outbound-http';

/**
 * The guarded outbound client (issue #20 point 4) against a real HTTP server on 127.0.0.1. The
 * DNS answers are the test's own (the client's injectable `lookup`): `platform.test` resolves to
 * whatever a case needs, so "a host name pointing at 10.0.0.1" needs no real DNS.
 */

const DEV = { development: true };
const PROD = { development: false };

/** A resolver answering `address` for every name, counting the questions. */
function answering(address: string) {
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return { lookup, asked };
}

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof OutboundError, `expected an OutboundError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call was not refused');
}

describe('guarded outbound HTTP client', () => {
  let server: Server;
  let port: number;
  const connections: Socket[] = [];
  let handler: Parameters<typeof createServer>[1] = (_req, res) => res.end('{}');

  before(async () => {
    server = createServer((req, res) => handler!(req, res));
    server.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const url = (path = '/') => `http://platform.localhost:${port}${path}`;
  /** A development portal's client: `platform.localhost` is our server. */
  const devClient = (timeoutMs?: number) =>
    createOutboundClient({ policy: DEV, lookup: answering('127.0.0.1').lookup, timeoutMs });

  for (const [address, range] of [
    ['10.0.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
  ] as const) {
    test(`a host name resolving to ${address} is refused before any connection`, async () => {
      const dns = answering(address);
      const client = createOutboundClient({ policy: PROD, lookup: dns.lookup });
      const before = connections.length;
      const started = Date.now();
      const error = await refusal(client.request('https://platform.test/.well-known/jwks.json'));
      assert.equal(error.code, 'OUTBOUND_BLOCKED_ADDRESS');
      assert.match(error.message, new RegExp(`${address.replace(/\./g, '\\.')}: ${range}`));
      assert.deepEqual(dns.asked, ['platform.test']);
      // Refused at the lookup: no connection attempt ran into the 5 s timeout.
      assert.ok(Date.now() - started < 2_000);
      assert.equal(connections.length, before);
      await client.close();
    });
  }

  test('a name resolving to loopback outside development reaches nothing', async () => {
    // The address is our live server: the only way to show no socket was opened is its count.
    const dns = answering('127.0.0.1');
    const client = createOutboundClient({ policy: DEV, lookup: dns.lookup });
    const prod = createOutboundClient({ policy: PROD, lookup: dns.lookup });
    const before = connections.length;
    // https (the only scheme a production portal calls) to a name that turns out to be loopback.
    const error = await refusal(prod.request(`https://platform.test:${port}/`));
    assert.equal(error.code, 'OUTBOUND_BLOCKED_ADDRESS');
    assert.equal(connections.length, before);
    // The same server in development is reachable (plain http to a loopback host name).
    const answer = await client.request(url('/ok'));
    assert.equal(answer.status, 200);
    assert.equal(connections.length, before + 1);
    await client.close();
    await prod.close();
  });

  test('address ranges: only public unicast passes; loopback only in development', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      'fd00:ec2::254',
      'fe80::1',
      '::',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '127.0.0.1',
      '::1',
    ]) {
      assert.notEqual(refusedAddress(address, PROD), null, address);
    }
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']) {
      assert.equal(refusedAddress(address, PROD), null, address);
    }
    assert.equal(refusedAddress('127.0.0.1', DEV), null);
    assert.equal(refusedAddress('::1', DEV), null);
    assert.notEqual(refusedAddress('10.0.0.1', DEV), null);
  });

  test('URL rules: https only, http to loopback only in development, literal addresses checked', () => {
    const code = (fn: () => unknown): OutboundErrorCode | null => {
      try {
        fn();
        return null;
      } catch (error) {
        return (error as OutboundError).code;
      }
    };
    assert.equal(code(() => checkOutboundUrl('http://lms.example/x', DEV)), 'OUTBOUND_BLOCKED_URL');
    assert.equal(code(() => checkOutboundUrl('http://localhost:8100/x', PROD)), 'OUTBOUND_BLOCKED_URL');
    assert.equal(code(() => checkOutboundUrl('http://localhost:8100/x', DEV)), null);
    assert.equal(code(() => checkOutboundUrl('ftp://lms.example/x', DEV)), 'OUTBOUND_BLOCKED_URL');
    assert.equal(code(() => checkOutboundUrl('https://u:p@lms.example/', DEV)), 'OUTBOUND_BLOCKED_URL');
    assert.equal(
      code(() => checkOutboundUrl('https://169.254.169.254/latest/meta-data', DEV)),
      'OUTBOUND_BLOCKED_ADDRESS',
    );
    assert.equal(code(() => checkOutboundUrl('https://[fd00:ec2::254]/', DEV)), 'OUTBOUND_BLOCKED_ADDRESS');
    assert.equal(code(() => checkOutboundUrl('https://127.0.0.1/', PROD)), 'OUTBOUND_BLOCKED_ADDRESS');
    assert.equal(
      code(() => checkOutboundUrl('https://other.example/x', DEV, ['lms.example'])),
      'OUTBOUND_BLOCKED_HOST',
    );
    assert.equal(code(() => checkOutboundUrl('https://LMS.example/x', DEV, ['lms.example'])), null);
  });

  test('development is an http portal on a loopback host, nothing else', () => {
    assert.equal(outboundPolicyFor('http://localhost:8080').development, true);
    assert.equal(outboundPolicyFor('https://localhost:8443').development, false);
    assert.equal(outboundPolicyFor('http://portal.school.example').development, false);
    assert.equal(outboundPolicyFor('https://portal.school.example').development, false);
  });

  test('a redirecting platform is refused, the redirect is not followed', async () => {
    let followed = 0;
    handler = (req, res) => {
      if (req.url === '/target') {
        followed++;
        res.end('{}');
        return;
      }
      res.writeHead(302, { location: '/target' }).end('moved');
    };
    const client = devClient();
    const error = await refusal(client.request(url('/start')));
    assert.equal(error.code, 'REDIRECT_REFUSED');
    assert.equal(error.status, 302);
    assert.equal(followed, 0);
    await client.close();
  });

  test('an answer over the cap is refused, declared or streamed', async () => {
    const big = 'x'.repeat(256 * 1024 + 1);
    handler = (req, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'content-length': big.length }).end(big);
      else {
        // Chunked, no length: the cap is counted as the body streams in.
        res.writeHead(200);
        res.write(big.slice(0, 200_000));
        res.end(big.slice(200_000));
      }
    };
    const client = devClient();
    for (const path of ['/declared', '/streamed']) {
      const error = await refusal(client.request(url(path)));
      assert.equal(error.code, 'TOO_LARGE', path);
      assert.doesNotMatch(error.message, /xxx/);
    }
    // Exactly the cap is fine.
    handler = (_req, res) => res.end('y'.repeat(256 * 1024));
    assert.equal((await client.request(url('/exact'))).body.length, 256 * 1024);
    await client.close();
  });

  test('a platform that does not answer in time is given up', async () => {
    handler = () => {
      // Never answers.
    };
    const client = devClient(300);
    const started = Date.now();
    const error = await refusal(client.request(url('/slow')));
    assert.equal(error.code, 'TIMEOUT');
    assert.ok(Date.now() - started < 3_000);
    await client.close();
  });

  test('an error answer keeps its status, and the jose fetch hands back the body', async () => {
    handler = (req, res) => {
      if (req.url === '/jwks') res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      else res.writeHead(400).end('secret internal detail');
    };
    const client = devClient();
    const answer = await client.request(url('/bad'), { method: 'POST', body: '{}' });
    assert.equal(answer.status, 400);
    assert.equal(answer.ok, false);
    const res = await client.fetch(url('/jwks'), { headers: new Headers(), signal: AbortSignal.timeout(1000) });
    assert.deepEqual(await res.json(), { keys: [] });
    await client.close();
  });
});
