import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { BrightspaceConfig } from '../../src/config';

/**
 * A small Brightspace for the tests, speaking the standards the API's client is written to:
 * OAuth 2.0 authorization code (RFC 6749: /d2l/oauth2/auth, /d2l/oauth2/token with HTTP Basic
 * client authentication, single-use codes bound to their redirect_uri) and Valence
 * `GET /d2l/api/lp/1.43/users/whoami` with the access token. Whoever `signedIn` names is the
 * Brightspace user who "consents"; `deny` answers like a user who refused.
 */
export interface TestBrightspaceUser {
  Identifier: string;
  FirstName: string;
  LastName: string;
  UniqueName: string;
  ProfileIdentifier: string;
}

export interface TestBrightspace {
  url: string;
  config: BrightspaceConfig;
  /** The Brightspace user the browser is signed in as. */
  signedIn: TestBrightspaceUser;
  deny: boolean;
  /** Make the token endpoint answer 500 (an outage). */
  tokenDown: boolean;
  /** Make whoami redirect (to itself, with `?moved=1`, which then answers as usual). */
  whoamiMoved: boolean;
  /** whoami requests seen, answered or redirected. */
  whoamiRequests: number;
  /** Token requests seen, for assertions on the client's authentication. */
  tokenRequests: Array<{ authorization: string | undefined; body: URLSearchParams }>;
  close(): Promise<void>;
}

export const brightspaceUser = (identifier: string, name = 'Bea'): TestBrightspaceUser => ({
  Identifier: identifier,
  FirstName: name,
  LastName: 'Brightspace',
  UniqueName: `${name.toLowerCase()}@lms.test`,
  ProfileIdentifier: `profile-${identifier}`,
});

const CLIENT_ID = 'portal-brightspace';
const CLIENT_SECRET = 'test-brightspace-secret-0123456789';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestBrightspace(): Promise<TestBrightspace> {
  const codes = new Map<string, { redirectUri: string; user: TestBrightspaceUser }>();
  const tokens = new Map<string, TestBrightspaceUser>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === '/d2l/oauth2/auth') {
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        const state = url.searchParams.get('state');
        if (
          url.searchParams.get('client_id') !== CLIENT_ID ||
          url.searchParams.get('response_type') !== 'code' ||
          !redirectUri
        ) {
          return json(400, { error: 'invalid_request' });
        }
        const back = new URL(redirectUri);
        if (state !== null) back.searchParams.set('state', state);
        if (fake.deny) {
          back.searchParams.set('error', 'access_denied');
        } else {
          const code = randomBytes(16).toString('hex');
          codes.set(code, { redirectUri, user: fake.signedIn });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/d2l/oauth2/token') {
        const body = new URLSearchParams(await readBody(req));
        fake.tokenRequests.push({ authorization: req.headers.authorization, body });
        if (fake.tokenDown) return json(500, { error: 'server_error' });
        const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return json(401, { error: 'invalid_client' });
        const code = body.get('code') ?? '';
        const grant = codes.get(code);
        codes.delete(code);
        if (
          body.get('grant_type') !== 'authorization_code' ||
          !grant ||
          grant.redirectUri !== body.get('redirect_uri')
        ) {
          return json(400, { error: 'invalid_grant' });
        }
        const token = randomBytes(16).toString('hex');
        tokens.set(token, grant.user);
        return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      }
      if (req.method === 'GET' && url.pathname === '/d2l/api/lp/1.43/users/whoami') {
        fake.whoamiRequests++;
        if (fake.whoamiMoved && !url.searchParams.has('moved')) {
          res.writeHead(302, { location: `${url.pathname}?moved=1` }).end();
          return;
        }
        const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
        const user = token ? tokens.get(token) : undefined;
        return user ? json(200, user) : json(401, {});
      }
      json(404, {});
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A suite that shares one for its whole run never has to close it to end.
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: TestBrightspace = {
    url,
    config: {
      host: url,
      authUrl: `${url}/d2l/oauth2/auth`,
      tokenUrl: `${url}/d2l/oauth2/token`,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiVersion: '1.43',
    },
    signedIn: brightspaceUser('1001'),
    deny: false,
    tokenDown: false,
    whoamiMoved: false,
    whoamiRequests: 0,
    tokenRequests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
