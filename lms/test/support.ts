import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { startLms, type RunningLms, type StartLmsOptions } from '../src/index';

/** A tool (the portal's role) for tests: its own key pair, its JWKS served over HTTP on loopback. */
export interface TestTool {
  kid: string;
  key: CryptoKey;
  /** A key pair the tool does not publish. */
  strayKey: CryptoKey;
  jwksUrl: string;
  sign(claims: JWTPayload, options?: { key?: CryptoKey; alg?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestTool(): Promise<TestTool> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const stray = await generateKeyPair('RS256');
  const kid = `tool-${randomBytes(4).toString('hex')}`;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url !== '/jwks') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kid,
    key: privateKey,
    strayKey: stray.privateKey,
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    sign: (claims, options = {}) =>
      new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'RS256', kid, typ: 'JWT' }).sign(options.key ?? privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const PORTAL_URL = 'http://portal.test';
export const SECRET = 'brightspace-secret-for-tests-0123456789';

export async function startTestLms(tool: TestTool, options: Partial<StartLmsOptions> = {}): Promise<RunningLms> {
  return startLms({ portalUrl: PORTAL_URL, toolJwksUrl: tool.jwksUrl, testEndpoints: true, brightspaceClientSecret: SECRET, ...options });
}

/** A client assertion as the tool signs it for the token endpoint (RFC 7523, LTI Security Framework §4.1). */
export function clientAssertion(tool: TestTool, lms: RunningLms, overrides: JWTPayload = {}, options: { key?: CryptoKey; alg?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return tool.sign(
    {
      iss: 'portal-tool',
      sub: 'portal-tool',
      aud: `${lms.url}/oauth2/token`,
      iat: now,
      exp: now + 300,
      jti: randomBytes(12).toString('hex'),
      ...overrides,
    },
    options,
  );
}

export const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

export const AGS_SCORE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
export const AGS_LINEITEM = 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem';

export async function agsToken(tool: TestTool, lms: RunningLms, scope = `${AGS_SCORE} ${AGS_LINEITEM}`): Promise<string> {
  const response = await fetch(`${lms.url}/oauth2/token`, form({
    grant_type: 'client_credentials',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: await clientAssertion(tool, lms),
    scope,
  }));
  if (response.status !== 200) throw new Error(`token answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';

/** Signs `userId` in to the stand-in; answers the session cookie header. */
export async function signInTo(lms: RunningLms, userId: string): Promise<string> {
  const response = await fetch(`${lms.url}/login`, { ...form({ user: userId }), redirect: 'manual' });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

/**
 * Plays the tool's side of the login the platform initiated (`login`, its query): the auth request
 * with the browser's cookie. Answers the auth response and the id_token's verified claims.
 */
export async function completeLogin(lms: RunningLms, cookie: string, login: URLSearchParams) {
  const params = new URLSearchParams({
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: login.get('client_id')!,
    redirect_uri: login.get('target_link_uri')!,
    login_hint: login.get('login_hint')!,
    lti_message_hint: login.get('lti_message_hint')!,
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
  });
  const response = await fetch(`${lms.url}/lti/auth?${params}`, { headers: { cookie } });
  const body = await response.text();
  const idToken = /name="id_token" value="([^"]+)"/.exec(body)?.[1];
  if (!idToken) throw new Error(`no id_token (${response.status}): ${body}`);
  const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${lms.url}/.well-known/jwks.json`)), {
    issuer: lms.url,
    audience: login.get('client_id')!,
    algorithms: ['RS256'],
  });
  return { response, payload };
}
