import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { createTestPlatform, type TestPlatform } from './platform-fixtures';

/**
 * A learning platform's AGS side, to the standard, over HTTP on 127.0.0.1: the OAuth2 token
 * endpoint (client credentials with a JWT client assertion, checked against the tool's published
 * JWKS: iss = sub = client id, aud = this token URL, a jti used once, exp), line item containers
 * (GET by resource_link_id, POST) and `{lineitem}/scores`, which records every accepted score.
 * `outage` makes the score endpoint answer a status instead (503, 429 with Retry-After, 400 …).
 */

export interface ReceivedScore {
  lineItem: string;
  contentType: string | undefined;
  token: string;
  body: Record<string, unknown>;
}

export interface LineItem {
  id: string;
  label: string;
  scoreMaximum: number;
  resourceLinkId?: string;
}

export interface AgsPlatform {
  platform: TestPlatform;
  origin: string;
  jwksUrl: string;
  tokenUrl: string;
  lineItemsUrl: string;
  /** A line item that exists from the start (the launch's `lineitem`). */
  lineItemUrl: string;
  scores: ReceivedScore[];
  /** Tokens issued, with the scopes asked for. */
  tokens: Array<{ token: string; scope: string }>;
  lineItems: LineItem[];
  /** Answers of the score endpoint before it works again, one per request. */
  outage: Array<{ status: number; headers?: Record<string, string> }>;
  /** Makes every token issued so far unknown (the platform restarted or revoked them). */
  revokeTokens(): void;
  /** Answers of the token endpoint before it works again. */
  tokenOutage: number[];
  /** Score requests that reached the endpoint, answered or not. */
  scoreRequests: () => number;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startAgsPlatform(options: {
  /** The tool's JWKS (GET /api/lti/jwks of the app under test). */
  toolJwks: () => Promise<JSONWebKeySet>;
  clientId?: string;
  tokenLifetimeSeconds?: number;
}): Promise<AgsPlatform> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const platform = await createTestPlatform(origin, options.clientId ?? 'portal-client');
  const tokenUrl = `${origin}/token`;
  const lineItemsUrl = `${origin}/courses/1/lineitems`;
  const state: AgsPlatform = {
    platform,
    origin,
    jwksUrl: `${origin}/jwks`,
    tokenUrl,
    lineItemsUrl,
    lineItemUrl: `${lineItemsUrl}/1`,
    scores: [],
    tokens: [],
    lineItems: [{ id: `${lineItemsUrl}/1`, label: 'Knee', scoreMaximum: 100 }],
    outage: [],
    tokenOutage: [],
    revokeTokens: () => valid.clear(),
    scoreRequests: () => scoreRequests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
  const valid = new Map<string, string>();
  const jtis = new Set<string>();
  let scoreRequests = 0;

  const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') =>
    res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));

  async function token(req: IncomingMessage, res: ServerResponse) {
    const outage = state.tokenOutage.shift();
    if (outage) return json(res, outage, { error: 'temporarily_unavailable' });
    const form = new URLSearchParams(await bodyOf(req));
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
    ) {
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    try {
      const { payload } = await jwtVerify(
        form.get('client_assertion') ?? '',
        createLocalJWKSet(await options.toolJwks()),
        {
          issuer: platform.clientId,
          subject: platform.clientId,
          audience: tokenUrl,
          algorithms: ['RS256'],
        },
      );
      if (typeof payload.jti !== 'string' || jtis.has(payload.jti)) throw new Error('jti reused');
      if (typeof payload.exp !== 'number' || payload.exp - Date.now() / 1000 > 3600) {
        throw new Error('exp too far');
      }
      jtis.add(payload.jti);
    } catch {
      return json(res, 401, { error: 'invalid_client' });
    }
    const scope = form.get('scope') ?? '';
    const issued = randomBytes(16).toString('hex');
    valid.set(issued, scope);
    state.tokens.push({ token: issued, scope });
    return json(res, 200, {
      access_token: issued,
      token_type: 'Bearer',
      expires_in: options.tokenLifetimeSeconds ?? 3600,
      scope,
    });
  }

  /** The bearer token's scopes, or null (then 401 was answered). */
  function authorised(req: IncomingMessage, res: ServerResponse, scope: string) {
    const auth = req.headers.authorization ?? '';
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const scopes = valid.get(bearer);
    if (scopes === undefined) {
      json(res, 401, { error: 'invalid_token' });
      return null;
    }
    if (!scopes.split(' ').includes(scope)) {
      json(res, 403, { error: 'insufficient_scope' });
      return null;
    }
    return bearer;
  }

  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (req.method === 'GET' && url.pathname === '/jwks') {
        return json(res, 200, { keys: [platform.publicJwk] });
      }
      if (req.method === 'POST' && url.pathname === '/token') return token(req, res);
      const base = new URL(lineItemsUrl).pathname;
      if (url.pathname === base) {
        if (!authorised(req, res, 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem')) return;
        if (req.method === 'GET') {
          const link = url.searchParams.get('resource_link_id');
          return json(
            res,
            200,
            state.lineItems.filter((i) => link === null || i.resourceLinkId === link),
            'application/vnd.ims.lis.v2.lineitemcontainer+json',
          );
        }
        if (req.method === 'POST') {
          const body = JSON.parse(await bodyOf(req)) as Omit<LineItem, 'id'>;
          const item = { ...body, id: `${lineItemsUrl}/${state.lineItems.length + 1}` };
          state.lineItems.push(item);
          return json(res, 201, item, 'application/vnd.ims.lis.v2.lineitem+json');
        }
      }
      const scores = url.pathname.match(new RegExp(`^${base}/(\\d+)/scores$`));
      if (req.method === 'POST' && scores) {
        scoreRequests++;
        const outage = state.outage.shift();
        if (outage) {
          return res
            .writeHead(outage.status, { 'content-type': 'application/json', ...outage.headers })
            .end(
              // What real platforms put in error bodies: nothing the portal may store or show.
              JSON.stringify({
                error: `status ${outage.status}`,
                trace: 'at ScoreService (internal.lms.example:8443/admin?token=s3cr3t)',
              }),
            );
        }
        const bearer = authorised(req, res, 'https://purl.imsglobal.org/spec/lti-ags/scope/score');
        if (!bearer) return;
        const lineItem = `${lineItemsUrl}/${scores[1]}`;
        if (!state.lineItems.some((i) => i.id === lineItem)) return json(res, 404, {});
        state.scores.push({
          lineItem,
          contentType: req.headers['content-type'],
          token: bearer,
          body: JSON.parse(await bodyOf(req)) as Record<string, unknown>,
        });
        return res.writeHead(204).end();
      }
      return json(res, 404, {});
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  return state;
}
