import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../src/app';
import {
  createMigratedTestDatabase,
  publicJwk,
  signToken,
  account,
  testConfig,
  type TestDatabase,
} from '../../helper';

/**
 * The production path: keys fetched from `${OIDC_ISSUER}/protocol/openid-connect/certs`, served
 * here by a small local server standing in for the identity provider.
 */
describe('verification against the issuer JWKS endpoint', () => {
  let server: Server;
  let issuer: string;
  let requested: string[] = [];
  let database: TestDatabase;

  before(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '');
      if (req.url === '/realms/main/protocol/openid-connect/certs') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: [publicJwk] }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/main`;
    database = await createMigratedTestDatabase();
  });
  after(async () => {
    server.close();
    await database.dispose();
  });

  test('a token signed with a key of the issuer JWKS is accepted', async () => {
    requested = [];
    const app = await buildApp({
      config: testConfig({ oidcIssuer: issuer }),
      db: database.db,
      logger: false,
    });
    try {
      const token = await signToken(account('educator').sub, { issuer });
      const res = await app.inject({
        url: '/api/v1/user/whoami',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(requested, ['/realms/main/protocol/openid-connect/certs']);
    } finally {
      await app.close();
    }
  });

  test('an unreachable key server answers 503, not 401', async () => {
    const other = await createMigratedTestDatabase();
    const deadIssuer = 'http://127.0.0.1:9/realms/main';
    const app = await buildApp({
      config: testConfig({ oidcIssuer: deadIssuer }),
      db: other.db,
      logger: false,
    });
    try {
      const token = await signToken(account('educator').sub, { issuer: deadIssuer });
      const res = await app.inject({
        url: '/api/v1/user/whoami',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { detail: 'Authentication service unavailable.' });
    } finally {
      await app.close();
      await other.dispose();
    }
  });
});
