import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  createLocalJWKSet,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type JWTPayload,
} from 'jose';
import { XSRF_COOKIE, XSRF_HEADER } from '@portal/contract';
import {
  DEMO_ACCOUNTS,
  DEMO_BRIGHTSPACE_ACCOUNTS,
  type DemoAccount,
} from '@portal/contract/demo-accounts';
import { buildApp, type App, type BuildAppOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { Db } from '../src/db/driver';
import { createPgDb } from '../src/db/pg-driver';
import { createPgliteDb } from '../src/db/pglite-driver';
import { createMigratedTestDatabase, type TestDatabase } from './database/template';

/** One scratch directory per test process for stored files. */
export const TEST_STORAGE_DIR = mkdtempSync(join(tmpdir(), 'portal-api-test-'));

export const TEST_ISSUER = 'http://identity.test/realms/main';
export const TEST_CLIENT_ID = 'frontend';
const KID = 'test-key';

/** The key the test "identity provider" signs with; the app trusts only its public half. */
const { privateKey, publicKey } = await generateKeyPair('RS256');
export const publicJwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
export const testJwks = createLocalJWKSet({ keys: [publicJwk] });
/** The private half, for tests that sign tokens `signToken` cannot shape. */
export const testPrivateKey = privateKey;
export const TEST_KID = KID;

export function account(
  role: DemoAccount['role'],
  organisation?: DemoAccount['organisation'],
): DemoAccount {
  const found = [...DEMO_ACCOUNTS, ...DEMO_BRIGHTSPACE_ACCOUNTS].find(
    (a) => a.role === role && (organisation === undefined || a.organisation === organisation),
  );
  if (!found) throw new Error(`No demo account with role ${role}`);
  return found;
}

export interface TokenOptions {
  claims?: JWTPayload;
  issuer?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  key?: Parameters<SignJWT['sign']>[0];
  kid?: string;
}

/** A Keycloak-shaped access token (docs/architecture.md) for `sub`. */
export async function signToken(sub: string, options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    azp: TEST_CLIENT_ID,
    typ: 'Bearer',
    sid: randomBytes(8).toString('hex'),
    scope: 'openid profile email',
    realm_access: { roles: ['default-roles-main'] },
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? KID, typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(options.claims?.aud ?? 'account')
    .setIssuedAt(now - 5)
    .setExpirationTime(now + (options.expiresIn ?? 300))
    .sign(options.key ?? privateKey);
}

/**
 * An access token as our identity provider (identity/, oidc-provider) issues it: RFC 9068 header
 * `typ: at+jwt`, plus the Keycloak claims its customiser adds.
 */
export async function signIdentityAccessToken(sub: string, options: TokenOptions = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    azp: TEST_CLIENT_ID,
    client_id: TEST_CLIENT_ID,
    typ: 'Bearer',
    scope: 'openid profile email',
    jti: randomBytes(8).toString('hex'),
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? KID, typ: 'at+jwt' })
    .setSubject(sub)
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(options.claims?.aud ?? 'account')
    .setIssuedAt(now - 5)
    .setExpirationTime(now + (options.expiresIn ?? 300))
    .sign(options.key ?? privateKey);
}

/**
 * An ID token, signed with the real key, valid in every way except that it is not an access
 * token. `identity`: as oidc-provider 8 issues them (header `typ: JWT`, `aud` = the client, no
 * `azp`, no `typ` claim). `keycloak`: as Keycloak does (claim `typ: "ID"`, `azp` and `aud` = the
 * client).
 */
export async function signIdToken(
  sub: string,
  shape: 'identity' | 'keycloak' = 'identity',
  options: TokenOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const shapeClaims: JWTPayload =
    shape === 'keycloak'
      ? { typ: 'ID', azp: TEST_CLIENT_ID, session_state: randomBytes(8).toString('hex') }
      : {};
  return new SignJWT({
    auth_time: now - 30,
    nonce: randomBytes(8).toString('hex'),
    at_hash: randomBytes(16).toString('base64url'),
    sid: randomBytes(8).toString('hex'),
    email: `${sub}@example.test`,
    given_name: 'Id',
    family_name: 'Token',
    ...shapeClaims,
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? KID, typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(TEST_CLIENT_ID)
    .setIssuedAt(now - 5)
    .setExpirationTime(now + (options.expiresIn ?? 300))
    .sign(options.key ?? privateKey);
}

/** The claims of a good access token for `sub`, for tokens signed in unusual ways. */
function accessClaims(sub: string): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub,
    iss: TEST_ISSUER,
    aud: 'account',
    azp: TEST_CLIENT_ID,
    typ: 'Bearer',
    iat: now - 5,
    exp: now + 300,
  };
}

/** `alg: none`: a good access token's claims without any signature. */
export function unsignedToken(sub: string): string {
  return new UnsecuredJWT(accessClaims(sub)).encode();
}

/**
 * HS256 with the issuer's public key (which anyone can fetch from the JWKS) as the HMAC secret:
 * the classic algorithm confusion. `pem` uses the SPKI PEM text, `jwk` the JWK's JSON.
 */
export async function hs256WithPublicKey(sub: string, as: 'pem' | 'jwk' = 'pem'): Promise<string> {
  const secret =
    as === 'pem' ? await exportSPKI(publicKey) : JSON.stringify(await exportJWK(publicKey));
  return new SignJWT(accessClaims(sub))
    .setProtectedHeader({ alg: 'HS256', kid: KID, typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

export async function authHeader(sub: string, options?: TokenOptions) {
  return { authorization: `Bearer ${await signToken(sub, options)}` };
}

/** Cookie and header of a matching XSRF pair, for unsafe requests. */
export function xsrfHeaders(token = 'test-xsrf-token') {
  return { cookie: `${XSRF_COOKIE}=${token}`, [XSRF_HEADER.toLowerCase()]: token };
}

/**
 * Production defaults except: the demo data the tests sign in as, no rate limits (tests call
 * faster than any user) and room for many open sessions (suites start dozens per demo learner).
 * test/security/limits.test.ts turns both back on to test them.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      PGLITE_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      STORAGE_DIR: TEST_STORAGE_DIR,
      SEED_DEMO: 'true',
      RATE_LIMIT_ENABLED: 'false',
      MAX_OPEN_SESSIONS_PER_USER: '1000',
      // Tests make expired licences on purpose; the expiry job runs only where a test asks.
      LICENSE_EXPIRY_CHECK_SECONDS: '0',
      // Tests make stale and replaced files on purpose; the clean-up runs only where one asks.
      FILE_CLEANUP_CHECK_SECONDS: '0',
      // Tests count outbox rows; the outbox clean-up runs only where one asks.
      OUTBOX_CLEANUP_CHECK_SECONDS: '0',
      // Tests rotate the tool key themselves; the scheduled check runs only where one asks.
      LTI_KEY_ROTATION_CHECK_SECONDS: '0',
      LTI_ROSTER_SYNC_CHECK_SECONDS: '0',
      // E-mail changes send mail; tests read it from the development outbox (app.mailer.outbox).
      MAIL_DEV_OUTBOX: 'true',
    }),
    oidcIssuer: TEST_ISSUER,
    oidcClientId: TEST_CLIENT_ID,
    ...overrides,
  };
}

export { createMigratedTestDatabase, type TestDatabase };

/**
 * A fresh, empty database (for tests of the migrations themselves): in-memory PGlite, or with
 * TEST_DATABASE_URL a new schema of that PostgreSQL, so parallel or repeated runs never see each
 * other's rows. Everything else starts from `createMigratedTestDatabase`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return { db: await createPgliteDb('memory://'), dispose: async () => undefined };
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    db: createPgDb({ connectionString: url, searchPath: schema, max: 4 }),
    async dispose() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestApp {
  app: App;
  db: Db;
  close(): Promise<void>;
}

/**
 * The real app on a fresh seeded database, trusting tokens from `signToken`; silent unless a test
 * reads its log (`logger`, e.g. with a capturing stream).
 */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  {
    logger = false,
    clock,
    jwks = testJwks,
  }: Pick<BuildAppOptions, 'logger' | 'clock' | 'jwks'> = {},
): Promise<TestApp> {
  const database = await createMigratedTestDatabase();
  const app = await buildApp({
    config: testConfig(overrides),
    db: database.db,
    jwks,
    logger,
    clock,
  });
  return {
    app,
    db: database.db,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
