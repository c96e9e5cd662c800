import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A learning platform's side of LTI Dynamic Registration 1.0 for tests, served over HTTP on
 * 127.0.0.1: its OpenID configuration and a registration endpoint that checks the Bearer token
 * and keeps what the tool posted. Each test may change what either answers.
 */
export interface RegistrationPlatform {
  issuer: string;
  configurationUrl: string;
  registrationToken: string;
  /** The configuration the next GET answers; tests edit it. */
  configuration: Record<string, unknown>;
  /** Overrides for the next answers: status, body, a delay in ms. */
  configurationAnswer: {
    status?: number;
    body?: string;
    delayMs?: number;
    headers?: Record<string, string>;
  };
  registrationAnswer: { status?: number; body?: unknown; delayMs?: number };
  /** Every registration posted: its Authorization header and JSON body. */
  registrations: Array<{ authorization: string | undefined; body: Record<string, unknown> }>;
  /** The client id the next successful registration answers (reset: a fresh one each time). */
  nextClientId(): string;
  deploymentId: string;
  /** The query a platform appends to the tool's registration URL. */
  registerQuery(portalToken: string, extra?: Record<string, string>): string;
  reset(): void;
  close(): Promise<void>;
}

export function defaultConfiguration(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    registration_endpoint: `${issuer}/register`,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: ['openid'],
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    claims_supported: ['sub', 'iss', 'name', 'email'],
    'https://purl.imsglobal.org/spec/lti-platform-configuration': {
      product_family_code: 'portal-test-lms',
      version: '1.0',
      messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
    },
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function serveRegistrationPlatform(): Promise<RegistrationPlatform> {
  const registrationToken = randomBytes(16).toString('hex');
  let lastClientId = '';
  const platform = {} as RegistrationPlatform;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // `/moved` serves the configuration too: the target of a redirect test.
    if (
      req.method === 'GET' &&
      (req.url === '/.well-known/openid-configuration' || req.url === '/moved')
    ) {
      const {
        status = 200,
        body,
        delayMs = 0,
        headers = {},
      } = req.url === '/moved' ? {} : platform.configurationAnswer;
      if (delayMs) await wait(delayMs);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body ?? JSON.stringify(platform.configuration));
      return;
    }
    if (req.method === 'POST' && req.url === '/register') {
      const text = await readBody(req);
      const { status, body, delayMs = 0 } = platform.registrationAnswer;
      const authorization = req.headers.authorization;
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Recorded as empty; the assertions see it.
      }
      // Recorded as it arrives: a late answer (delayMs) must not land in the next test's list.
      platform.registrations.push({ authorization, body: parsed });
      if (delayMs) await wait(delayMs);
      if (authorization !== `Bearer ${registrationToken}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
      lastClientId = platform.nextClientId();
      res.writeHead(status ?? 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          body ?? {
            ...parsed,
            client_id: lastClientId,
            'https://purl.imsglobal.org/spec/lti-tool-configuration': {
              ...(parsed['https://purl.imsglobal.org/spec/lti-tool-configuration'] as object),
              deployment_id: platform.deploymentId,
            },
          },
        ),
      );
      return;
    }
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Suites that never close it (the auth matrix's fixtures) must not be kept alive by it.
  server.unref();
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  Object.assign(platform, {
    issuer,
    configurationUrl: `${issuer}/.well-known/openid-configuration`,
    registrationToken,
    registerQuery(portalToken: string, extra: Record<string, string> = {}) {
      return new URLSearchParams({
        openid_configuration: platform.configurationUrl,
        registration_token: registrationToken,
        portal_token: portalToken,
        ...extra,
      }).toString();
    },
    reset() {
      platform.deploymentId = 'deployment-dr-1';
      platform.nextClientId = () => `dr-client-${randomUUID()}`;
      platform.configuration = defaultConfiguration(issuer);
      platform.configurationAnswer = {};
      platform.registrationAnswer = {};
      platform.registrations = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  platform.reset();
  return platform;
}
