/**
 * The addresses the API believes, through the real proxy: the host's static server
 * (@portal/static-server, as host/server.mjs runs it) in front of a real API app, with clients on
 * different loopback addresses (Linux routes all of 127.0.0.0/8 to the loopback interface, so a
 * socket bound to 127.0.0.2 is another client). The API trusts exactly what `npm start` tells it
 * to (scripts/services.mjs `apiTrustProxy`): the host's hop, and the proxies the host trusts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { startStaticServer } from '@portal/static-server';
import { loadConfig } from '../../src/config';
import { buildTestApp, type TestApp } from '../helper';

/** How `npm start` configures the API's TRUST_PROXY from the host's (plain JS, no types). */
const { apiTrustProxy } = (await import(
  new URL('../../../scripts/services.mjs', import.meta.url).href
)) as { apiTrustProxy: (hostTrustProxy?: string) => string };

/** A TLS-terminating load balancer in front of the second host, which that host trusts. */
const FRONT_PROXY = '127.0.0.3';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from a client whose socket is bound to `from`. */
function call(
  port: number,
  from: string,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, headers, localAddress: from, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** What the API made of a request: Fastify's view after TRUST_PROXY, and the header it got. */
interface Seen {
  ip: string;
  protocol: string;
  host: string;
  forwardedFor: string | undefined;
}

describe('the host proxy and the addresses the API believes', () => {
  let api: TestApp;
  let apiPort: number;
  const hosts: FastifyInstance[] = [];
  /** Host as `npm start` runs it: no proxy in front of it. */
  let host: number;
  /** Host behind FRONT_PROXY (its TRUST_PROXY). */
  let hostBehindProxy: number;
  const seen = new Map<string, Seen>();

  /** The API's view of the request that carried `x-probe: probe`. */
  const seenBy = (probe: string): Seen => {
    const found = seen.get(probe);
    assert.ok(found, `the API saw no request ${probe}`);
    return found;
  };

  before(async () => {
    api = await buildTestApp({
      rateLimitEnabled: true,
      rateLimitWindowMs: 10 * 60_000,
      rateLimitLtiPerAddress: 5,
      rateLimitAnonymousPerAddress: 50,
      // What `npm start` gives the API when the host trusts FRONT_PROXY.
      trustProxy: loadConfig({ TRUST_PROXY: apiTrustProxy(FRONT_PROXY) }).trustProxy,
    });
    api.app.addHook('onRequest', async (request) => {
      const probe = request.headers['x-probe'];
      if (typeof probe !== 'string') return;
      const forwardedFor = request.headers['x-forwarded-for'];
      seen.set(probe, {
        ip: request.ip,
        protocol: request.protocol,
        host: request.host,
        forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
      });
    });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    apiPort = (api.app.server.address() as AddressInfo).port;

    const root = await mkdtemp(join(tmpdir(), 'proxy-host-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>host</title>');
    const start = async (trustProxy: false | string[]) => {
      const server = await startStaticServer({
        name: 'test-host',
        root,
        port: 0,
        host: '127.0.0.1',
        spa: true,
        logger: false,
        closeOnSignals: false,
        trustProxy,
        proxy: { prefix: '/api', upstream: `http://127.0.0.1:${apiPort}` },
      });
      hosts.push(server);
      return (server.server.address() as AddressInfo).port;
    };
    host = await start(false);
    hostBehindProxy = await start([FRONT_PROXY]);
  });
  after(async () => {
    for (const server of hosts) await server.close();
    await api.close();
  });

  test("the API sees the client's own address, whatever X-Forwarded-* it forges", async () => {
    const res = await call(host, '127.0.0.2', '/api/healthz', {
      'x-probe': 'forged',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.test',
      forwarded: 'for=203.0.113.9;proto=https',
      host: 'portal.school.test:8080',
    });
    assert.equal(res.status, 404, 'the API answered (/api/healthz is no route)');
    assert.deepEqual(seenBy('forged'), {
      ip: '127.0.0.2',
      protocol: 'http',
      host: 'portal.school.test:8080',
      forwardedFor: '127.0.0.2',
    });
  });

  test('behind a proxy the host trusts, its client, protocol and host arrive', async () => {
    // The load balancer appended its client (198.51.100.7) to what that client sent.
    const res = await call(hostBehindProxy, FRONT_PROXY, '/api/lti/jwks', {
      'x-probe': 'balanced',
      'x-forwarded-for': '203.0.113.66, 198.51.100.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'portal.school.example',
    });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(seenBy('balanced'), {
      ip: '198.51.100.7',
      protocol: 'https',
      host: 'portal.school.example',
      forwardedFor: `198.51.100.7, ${FRONT_PROXY}`,
    });

    // The same headers from a client the host does not trust are its own say-so.
    await call(hostBehindProxy, '127.0.0.2', '/api/lti/jwks', {
      'x-probe': 'not-the-balancer',
      'x-forwarded-for': '203.0.113.66, 198.51.100.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'portal.school.example',
      host: 'portal.school.test',
    });
    assert.deepEqual(seenBy('not-the-balancer'), {
      ip: '127.0.0.2',
      protocol: 'http',
      host: 'portal.school.test',
      forwardedFor: '127.0.0.2',
    });
  });

  test('the API believes X-Forwarded-For from the host only, not from a client calling it directly', async () => {
    await call(apiPort, '127.0.0.2', '/healthz', {
      'x-probe': 'direct',
      'x-forwarded-for': '203.0.113.9',
    });
    assert.equal(seenBy('direct').ip, '127.0.0.2');
  });

  test("one address's flood with forged X-Forwarded-For is limited; another address's LTI login is not", async () => {
    const flood = [];
    for (let i = 0; i < 12; i += 1) {
      flood.push(
        await call(host, '127.0.0.5', '/api/lti/jwks', { 'x-forwarded-for': `203.0.113.${i}` }),
      );
    }
    const statuses = flood.map((res) => res.status);
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200], statuses.join());
    assert.deepEqual(
      new Set(statuses.slice(5)),
      new Set([429]),
      `each forged address past the budget: ${statuses.join()}`,
    );
    assert.match(String(flood[11]?.headers['retry-after']), /^\d+$/);

    const login = `/api/lti/login?iss=${encodeURIComponent('https://platform.test')}&login_hint=x&target_link_uri=${encodeURIComponent('http://localhost:8080/')}`;
    const other = await call(host, '127.0.0.6', login, { 'x-probe': 'other-login' });
    assert.notEqual(other.status, 429, other.body);
    assert.equal(other.status, 400, 'answered by the login itself (an unknown platform)');
    assert.equal(seenBy('other-login').ip, '127.0.0.6');
    assert.equal((await call(host, '127.0.0.5', login)).status, 429, 'the flooding address waits');
  });
});
