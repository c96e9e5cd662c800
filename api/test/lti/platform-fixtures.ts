import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { LTI_CLAIM } from '../../src/lti/validate-launch';

/**
 * A learning platform for tests: its own RS256 key pair, id_tokens shaped as LTI 1.3 platforms
 * send them (signed for real with jose), and optionally its JWKS served over HTTP on 127.0.0.1.
 */

export const ROLES = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  teachingAssistant:
    'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
  administrator: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
  student: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student',
} as const;

export interface TestPlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** Another key pair the platform does not publish. */
  strayKey: CryptoKey;
  publicPem: string;
}

export async function createTestPlatform(
  issuer = 'https://lms.test',
  clientId = 'portal-client',
): Promise<TestPlatform> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const stray = await generateKeyPair('RS256');
  const kid = `platform-${randomBytes(4).toString('hex')}`;
  return {
    issuer,
    clientId,
    deploymentId: 'deployment-1',
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    strayKey: stray.privateKey,
    publicPem: await exportSPKI(publicKey),
  };
}

export interface LaunchShape {
  nonce: string;
  sub?: string;
  roles?: string[];
  email?: string;
  claims?: JWTPayload;
  /** Claims to remove after building. */
  omit?: string[];
  aud?: string | string[];
  iat?: number;
  exp?: number;
  header?: Record<string, unknown>;
  key?: CryptoKey;
}

/** The claims of a resource link launch of `platform`, as a platform would sign them. */
export function launchClaims(platform: TestPlatform, shape: LaunchShape): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = {
    iss: platform.issuer,
    aud: shape.aud ?? platform.clientId,
    sub: shape.sub ?? 'platform-user-1',
    iat: shape.iat ?? now - 5,
    exp: shape.exp ?? now + 300,
    nonce: shape.nonce,
    email: shape.email ?? 'lti.learner@lms.test',
    given_name: 'Lena',
    family_name: 'Platform',
    [`${LTI_CLAIM}deployment_id`]: platform.deploymentId,
    [`${LTI_CLAIM}version`]: '1.3.0',
    [`${LTI_CLAIM}message_type`]: 'LtiResourceLinkRequest',
    [`${LTI_CLAIM}roles`]: shape.roles ?? [ROLES.learner],
    [`${LTI_CLAIM}target_link_uri`]: 'http://localhost:8080/api/lti/launch',
    [`${LTI_CLAIM}resource_link`]: { id: 'resource-link-1', title: 'Knee, Desktop' },
    [`${LTI_CLAIM}context`]: { id: 'course-1', title: 'Radiography 101' },
    [`${LTI_CLAIM}custom`]: {
      configuration: 'radiography.lower-limb.knee',
      protocol: 'vmc-radiography',
      productId: '1',
    },
    'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
      scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
      lineitem: 'https://lms.test/lineitems/1',
    },
    ...shape.claims,
  };
  for (const name of shape.omit ?? []) delete claims[name];
  return claims;
}

/** A signed id_token (RS256 with the platform's key unless `shape.key`; header overridable). */
export async function signLaunch(platform: TestPlatform, shape: LaunchShape): Promise<string> {
  return new SignJWT(launchClaims(platform, shape))
    .setProtectedHeader({ alg: 'RS256', kid: platform.kid, typ: 'JWT', ...shape.header } as {
      alg: string;
    })
    .sign(shape.key ?? platform.privateKey);
}

/** `alg: none`: the same claims without a signature. */
export function unsignedLaunch(platform: TestPlatform, shape: LaunchShape): string {
  return new UnsecuredJWT(launchClaims(platform, shape)).encode();
}

/** HS256 keyed with the platform's public key (PEM): the algorithm confusion attack. */
export async function hs256Launch(platform: TestPlatform, shape: LaunchShape): Promise<string> {
  return new SignJWT(launchClaims(platform, shape))
    .setProtectedHeader({ alg: 'HS256', kid: platform.kid, typ: 'JWT' })
    .sign(new TextEncoder().encode(platform.publicPem));
}

/** Serves `{keys}` of the platforms at `/jwks` on 127.0.0.1; counts requests. */
export async function serveJwks(
  keys: () => JWK[],
): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: keys() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Suites that never close it (the auth matrix's fixtures) must not be kept alive by it.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
