import { Type, type StaticDecode } from '@sinclair/typebox';
import { ConfigError, Env, readEnv } from '@portal/service-kit';
import { fileURLToPath } from 'node:url';
import { INSTALLER_MAX_BYTES } from '@portal/contract';

const DEFAULT_PGLITE_DIR = fileURLToPath(new URL('../.data/pglite', import.meta.url));
const DEFAULT_STORAGE_DIR = fileURLToPath(new URL('../.data/files', import.meta.url));

/**
 * Environment the API reads. Validated once at start so a typo in a deployment fails loudly
 * instead of surfacing as an odd runtime error later.
 */
export const ConfigSchema = Type.Object({
  API_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  // 'localhost' makes Fastify listen on both 127.0.0.1 and ::1, whichever the proxy resolves.
  API_HOST: Type.String({ minLength: 1, default: 'localhost' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  // PostgreSQL connections each API process may hold (PGlite has one). Every instance holds up
  // to this many, so instances × this (plus one listener each) must fit the server's
  // max_connections.
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  // API processes this start runs on API_PORT (node:cluster); more than one needs PostgreSQL.
  API_INSTANCES: Type.Integer({ minimum: 1, maximum: 64, default: 1 }),
  PGLITE_DIR: Type.String({ minLength: 1, default: DEFAULT_PGLITE_DIR }),
  OIDC_ISSUER: Type.String({ pattern: '^https?://', default: 'http://localhost:8180/realms/main' }),
  OIDC_CLIENT_ID: Type.String({ minLength: 1, default: 'frontend' }),
  // Demo organisations and accounts with known passwords: only the demo and test stacks.
  SEED_DEMO: Type.Boolean({ default: false }),
  // With SEED_DEMO: once, ~56 more learners, a licence running out within 30 days and ~300
  // reports with evidence images over the last 90 days (`npm start`; not the e2e stack).
  SEED_DEMO_ACTIVITY: Type.Boolean({ default: false }),
  // Proxies whose X-Forwarded-* headers are believed: a hop count, or a comma list of addresses,
  // CIDR ranges and the names loopback, linklocal, uniquelocal. Unset = none (the socket's peer).
  // Never "trust all": any client could then claim any address and walk around the per-address
  // rate limits (the grammar is service-kit's, shared with the static servers).
  TRUST_PROXY: Env.TrustProxy(),
  // Requests per window. A signed-in user's work (a simulator's: its session's) is counted per
  // user, whatever address it comes from; only what nobody is signed in for is counted per
  // address, sized for a school whose ~500 learners share one NAT address.
  RATE_LIMIT_ENABLED: Type.Boolean({ default: true }),
  RATE_LIMIT_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 60 }),
  // Per user. Session status and whoami: the launch screen polls every second, maybe from
  // several tabs.
  RATE_LIMIT_POLLING: Type.Integer({ minimum: 1, default: 600 }),
  RATE_LIMIT_SESSION_CREATE: Type.Integer({ minimum: 1, default: 10 }),
  // Multipart routes: evidence and file uploads.
  RATE_LIMIT_UPLOAD: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_DEFAULT: Type.Integer({ minimum: 1, default: 300 }),
  // Per address. LTI login, launch, JWKS and registration: 500 learners opening an activity at
  // once are ~1 000 requests (login, launch), with room for reloads.
  RATE_LIMIT_LTI_PER_ADDRESS: Type.Integer({ minimum: 1, default: 3000 }),
  // Per address. Every other request without a user: public routes (signed file URLs a report's
  // images load from, health, OpenAPI), unknown URLs, a protected route without a credential,
  // and refused credentials (counted once refused; then the address waits before any further
  // token is checked).
  RATE_LIMIT_ANONYMOUS_PER_ADDRESS: Type.Integer({ minimum: 1, default: 6000 }),
  MAX_OPEN_SESSIONS_PER_USER: Type.Integer({ minimum: 1, default: 5 }),
  MAX_EVIDENCE_PER_SESSION: Type.Integer({ minimum: 1, default: 200 }),
  MAX_STORED_BYTES_PER_USER: Type.Integer({ minimum: 0, default: 1024 ** 3 }),
  // A simulator session token dies this long after creation, or after this long without a call.
  SESSION_TOKEN_MAX_AGE_SECONDS: Type.Integer({ minimum: 60, default: 24 * 3600 }),
  SESSION_TOKEN_IDLE_SECONDS: Type.Integer({ minimum: 60, default: 2 * 3600 }),
  // How often sessions past those limits are closed; 0 = never (another process does it).
  SESSION_CLOSE_INTERVAL_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 300 }),
  // Local-disk file storage (uploads, evidence images, installers).
  STORAGE_DIR: Type.String({ minLength: 1, default: DEFAULT_STORAGE_DIR }),
  // HMAC key of signed file URLs; unset = random per process (URLs die with it).
  STORAGE_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  SIGNED_URL_TTL_SECONDS: Type.Integer({ minimum: 10, maximum: 86400, default: 300 }),
  // S3-compatible object storage instead of STORAGE_DIR: the store's endpoint as the API reaches
  // it (http://127.0.0.1:9000, https://s3.eu-central-1.amazonaws.com). Unset = local disk.
  STORAGE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  // The endpoint browsers reach, if not STORAGE_URL; presigned download URLs are signed for it.
  STORAGE_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  STORAGE_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
  STORAGE_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  // Both or neither; neither = the AWS SDK's default chain (environment, profile, instance role).
  STORAGE_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  STORAGE_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  // Bucket in the path rather than the host name: what MinIO and most self-hosted stores expect.
  STORAGE_FORCE_PATH_STYLE: Type.Boolean({ default: true }),
  // The API checks the bucket at start (HeadBucket); a missing one is created only when this is
  // true (a development or test store), else the start fails naming the bucket.
  STORAGE_CREATE_BUCKET: Type.Boolean({ default: false }),
  // Largest installer upload (sim-installation-file), streamed to storage; at most 2 GiB.
  INSTALLER_MAX_BYTES: Type.Integer({
    minimum: 1,
    maximum: INSTALLER_MAX_BYTES,
    default: INSTALLER_MAX_BYTES,
  }),
  // How often each process looks whether today's licence expiry run is due (it runs once per
  // UTC day per database, whichever process comes first); 0 = never in this process.
  LICENSE_EXPIRY_CHECK_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 3600 }),
  // How often each process looks whether today's file clean-up (unsaved and replaced uploads)
  // is due; 0 = never in this process.
  FILE_CLEANUP_CHECK_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 3600 }),
  // The daily removal of finished image markings from the outbox; 0 = not in this process.
  OUTBOX_CLEANUP_CHECK_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 3600 }),
  // How often each process looks whether today's LTI tool key check is due (a next key is
  // published once the signing key is 90 days old; one process per day); 0 = never in this process.
  LTI_KEY_ROTATION_CHECK_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 3600 }),
  // Seconds of clock difference the LTI launch check tolerates on the platform's id_token (exp,
  // iat, nbf): platforms' clocks run ahead or behind ours.
  LTI_CLOCK_LEEWAY_SECONDS: Type.Integer({ minimum: 0, maximum: 600, default: 60 }),
  // How often each process looks whether today's LTI roster resync (every course a launch came
  // from in the last 30 days) is due; 0 = never in this process.
  LTI_ROSTER_SYNC_CHECK_SECONDS: Type.Integer({ minimum: 0, maximum: 86400, default: 3600 }),
  // Keycloak Admin REST API (or identity/'s subset of it) where administrators' new users get
  // their accounts: base URL (the realm comes from OIDC_ISSUER) and a confidential client with
  // the client-credentials grant. Unset = accounts wait in the outbox until it is configured.
  IDENTITY_ADMIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  IDENTITY_ADMIN_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  IDENTITY_ADMIN_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  // A launch is a sign-in (issue #22 point 1): the API's OpenID provider for launched users
  // (/api/lti/broker), which the identity provider brokers as the identity provider ALIAS with the
  // confidential client CLIENT_ID/SECRET (the same values in identity's LTI_BROKER_* and in
  // Keycloak's identity provider entry). Unset secret = no brokered sign-in: launches ask for a
  // password as before.
  LTI_BROKER_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  LTI_BROKER_CLIENT_ID: Type.String({ minLength: 1, maxLength: 255, default: 'portal-identity' }),
  LTI_BROKER_ALIAS: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'lti' }),
  // The portal's address: invitation e-mails lead back here once the password is set.
  PORTAL_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:8080' }),
  // Mail the API sends itself (e-mail change confirmations and notices): an SMTP server URL,
  // `smtp://user:password@host:587` or `smtps://…`, and the From header.
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, default: '"Simulation Portal" <no-reply@localhost>' }),
  // Named in those mails (the host and identity provider read the same variable).
  PRODUCT_NAME: Type.String({ minLength: 1, maxLength: 100, default: 'Simulation Portal' }),
  // Development and tests only, and only without SMTP_URL: mails are kept in a local outbox that
  // GET /api/dev/outbox.json lists (anyone who can reach it reads every confirmation link).
  MAIL_DEV_OUTBOX: Type.Boolean({ default: false }),
  // How often the outbox worker looks for due work (it is also woken after every write that
  // adds some); 0 = no worker in this process.
  OUTBOX_POLL_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 5 }),
  // Brightspace (D2L) OAuth 2.0 for whoami's Brightspace flags (issue #10 point 6). The LMS's
  // address (Valence API, /d2l/home), and D2L's authorization and token endpoints, which are not
  // on the LMS's host but on auth.brightspace.com (a stand-in serves them itself). The feature is
  // on only with BRIGHTSPACE_HOST, BRIGHTSPACE_CLIENT_ID and BRIGHTSPACE_CLIENT_SECRET all set.
  BRIGHTSPACE_HOST: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$' })),
  BRIGHTSPACE_AUTH_URL: Type.String({
    pattern: '^https?://',
    default: 'https://auth.brightspace.com/oauth2/auth',
  }),
  BRIGHTSPACE_TOKEN_URL: Type.String({
    pattern: '^https?://',
    default: 'https://auth.brightspace.com/core/connect/token',
  }),
  BRIGHTSPACE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  BRIGHTSPACE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  // The Valence LP API version of `/d2l/api/lp/{version}/users/whoami`.
  BRIGHTSPACE_API_VERSION: Type.String({ pattern: '^[0-9]+\\.[0-9]+$', default: '1.43' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  // Operations (issue #24): GET /metrics answers only this bearer token (unset = no /metrics);
  // a stop stays unready but open SHUTDOWN_DRAIN_SECONDS (a load balancer's probe interval), and
  // exits regardless after SHUTDOWN_GRACE_SECONDS; traces go to an OpenTelemetry collector
  // only when its endpoint is set (the SDK is not even loaded otherwise).
  METRICS_TOKEN: Env.MetricsToken(),
  SHUTDOWN_GRACE_SECONDS: Env.ShutdownGraceSeconds(),
  SHUTDOWN_DRAIN_SECONDS: Env.ShutdownDrainSeconds(),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
});

export type RawConfig = StaticDecode<typeof ConfigSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL pool size per process (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** API processes `src/server.ts` runs (API_INSTANCES). */
  instances: number;
  pgliteDir: string;
  oidcIssuer: string;
  oidcClientId: string;
  seedDemo: boolean;
  /** Seed the demo activity once (needs seedDemo). */
  seedDemoActivity: boolean;
  /** Fastify's `trustProxy`: false, a hop count, or addresses/CIDRs/names. */
  trustProxy: false | number | string[];
  rateLimitEnabled: boolean;
  rateLimitWindowMs: number;
  rateLimitPolling: number;
  rateLimitSessionCreate: number;
  rateLimitUpload: number;
  rateLimitDefault: number;
  rateLimitLtiPerAddress: number;
  rateLimitAnonymousPerAddress: number;
  maxOpenSessionsPerUser: number;
  maxEvidencePerSession: number;
  maxStoredBytesPerUser: number;
  sessionTokenMaxAgeSeconds: number;
  sessionTokenIdleSeconds: number;
  /** 0 = the close job does not run in this process. */
  sessionCloseIntervalMs: number;
  storageDir: string;
  storageSigningSecret: string | undefined;
  signedUrlTtlSeconds: number;
  /** null = local disk under `storageDir`. */
  s3: S3Config | null;
  installerMaxBytes: number;
  /** 0 = the licence expiry job does not run in this process. */
  licenseExpiryCheckMs: number;
  /** 0 = the file clean-up job does not run in this process. */
  fileCleanupCheckMs: number;
  /** 0 = the outbox clean-up job does not run in this process. */
  outboxCleanupCheckMs: number;
  /** 0 = the LTI key rotation check does not run in this process. */
  ltiKeyRotationCheckMs: number;
  /** Clock difference tolerated on LTI launch tokens. */
  ltiClockLeewaySeconds: number;
  /** 0 = the daily LTI roster resync does not run in this process. */
  ltiRosterSyncCheckMs: number;
  /** null = no identity provisioning configured (accounts wait in the outbox). */
  identityAdmin: IdentityAdminConfig | null;
  /** Origin of the portal, without trailing slash. */
  portalUrl: string;
  /** The launch sign-in broker's client (LTI_BROKER_*); null = no brokered sign-in. */
  ltiBroker: LtiBrokerConfig | null;
  /** 0 = the outbox worker does not run in this process. */
  outboxPollMs: number;
  /** How the API sends mail; null = it cannot (e-mail changes are refused with 503). */
  mail: MailConfig | null;
  /** null = Brightspace OAuth off: whoami's Brightspace flags are always false. */
  brightspace: BrightspaceConfig | null;
  logLevel: RawConfig['LOG_LEVEL'];
  /** Operations: the /metrics token (undefined = no /metrics), the stop's drain and deadline. */
  metricsToken: string | undefined;
  shutdownDrainMs: number;
  shutdownGraceMs: number;
  /** The OpenTelemetry collector (OTLP/HTTP); undefined = no tracing. */
  otlpEndpoint: string | undefined;
}

export interface S3Config {
  endpoint: string;
  publicEndpoint: string | undefined;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** Create the bucket at start when it does not exist (STORAGE_CREATE_BUCKET). */
  createBucket: boolean;
}

export interface BrightspaceConfig {
  /** The LMS's origin, without trailing slash. */
  host: string;
  authUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  apiVersion: string;
}

export interface MailConfig {
  /** From header. */
  from: string;
  productName: string;
  /** An SMTP server, or the development outbox (`smtpUrl` undefined). */
  smtpUrl: string | undefined;
}

export interface IdentityAdminConfig {
  /** Base URL of the Keycloak server, e.g. http://localhost:8180. */
  baseUrl: string;
  realm: string;
  clientId: string;
  clientSecret: string;
}

// One mechanism for every service's environment (tools/service-kit): empty = unset, defaults,
// conversion from text, every problem listed as `NAME: message`.
export { ConfigError };

/**
 * Variables an older version read, refused with what replaces them, so a deployment that still
 * sets one learns that its setting would silently do nothing (or something else) now.
 */
const RETIRED_VARIABLES: Readonly<Record<string, string>> = {
  RATE_LIMIT_ADDRESS_USERS:
    'signed-in users are limited per user, whatever their address; set RATE_LIMIT_ANONYMOUS_PER_ADDRESS for requests without a user',
  RATE_LIMIT_LTI:
    'LTI login, launch, JWKS and registration are limited per address: set RATE_LIMIT_LTI_PER_ADDRESS (requests per address and window)',
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const retired = Object.entries(RETIRED_VARIABLES)
    .filter(([name]) => (env[name] ?? '') !== '')
    .map(([name, instead]) => `  ${name}: no longer read; ${instead}`);
  if (retired.length > 0) throw new ConfigError(`Invalid environment:\n${retired.join('\n')}`);
  const raw: RawConfig = readEnv(ConfigSchema, env);
  // The activity's learners belong to the demo organisations and use their licences.
  if (raw.SEED_DEMO_ACTIVITY && !raw.SEED_DEMO) {
    throw new ConfigError('Invalid environment:\n  SEED_DEMO_ACTIVITY: needs SEED_DEMO=true');
  }
  // PGlite is a database inside one process: a second process cannot open it.
  if (raw.API_INSTANCES > 1 && raw.DATABASE_URL === undefined) {
    throw new ConfigError(
      `Invalid environment:\n  API_INSTANCES: ${raw.API_INSTANCES} instances need DATABASE_URL (PostgreSQL); the embedded database (PGlite) serves one process`,
    );
  }
  // The grace runs from the SIGTERM: a drain delay as long would end every stop in exit 1, with
  // the requests in flight cut off.
  if (raw.SHUTDOWN_DRAIN_SECONDS >= raw.SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError(
      `Invalid environment:\n  SHUTDOWN_DRAIN_SECONDS: ${raw.SHUTDOWN_DRAIN_SECONDS} must be less than SHUTDOWN_GRACE_SECONDS (${raw.SHUTDOWN_GRACE_SECONDS}), which counts from the SIGTERM and must leave time for the requests in flight`,
    );
  }
  return {
    port: raw.API_PORT,
    host: raw.API_HOST,
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    instances: raw.API_INSTANCES,
    pgliteDir: raw.PGLITE_DIR,
    oidcIssuer: raw.OIDC_ISSUER.replace(/\/+$/, ''),
    oidcClientId: raw.OIDC_CLIENT_ID,
    seedDemo: raw.SEED_DEMO,
    seedDemoActivity: raw.SEED_DEMO_ACTIVITY,
    trustProxy: raw.TRUST_PROXY,
    rateLimitEnabled: raw.RATE_LIMIT_ENABLED,
    rateLimitWindowMs: raw.RATE_LIMIT_WINDOW_SECONDS * 1000,
    rateLimitPolling: raw.RATE_LIMIT_POLLING,
    rateLimitSessionCreate: raw.RATE_LIMIT_SESSION_CREATE,
    rateLimitUpload: raw.RATE_LIMIT_UPLOAD,
    rateLimitDefault: raw.RATE_LIMIT_DEFAULT,
    rateLimitLtiPerAddress: raw.RATE_LIMIT_LTI_PER_ADDRESS,
    rateLimitAnonymousPerAddress: raw.RATE_LIMIT_ANONYMOUS_PER_ADDRESS,
    maxOpenSessionsPerUser: raw.MAX_OPEN_SESSIONS_PER_USER,
    maxEvidencePerSession: raw.MAX_EVIDENCE_PER_SESSION,
    maxStoredBytesPerUser: raw.MAX_STORED_BYTES_PER_USER,
    sessionTokenMaxAgeSeconds: raw.SESSION_TOKEN_MAX_AGE_SECONDS,
    sessionTokenIdleSeconds: raw.SESSION_TOKEN_IDLE_SECONDS,
    sessionCloseIntervalMs: raw.SESSION_CLOSE_INTERVAL_SECONDS * 1000,
    storageDir: raw.STORAGE_DIR,
    storageSigningSecret: raw.STORAGE_SIGNING_SECRET,
    signedUrlTtlSeconds: raw.SIGNED_URL_TTL_SECONDS,
    s3: s3Config(raw),
    installerMaxBytes: raw.INSTALLER_MAX_BYTES,
    licenseExpiryCheckMs: raw.LICENSE_EXPIRY_CHECK_SECONDS * 1000,
    fileCleanupCheckMs: raw.FILE_CLEANUP_CHECK_SECONDS * 1000,
    outboxCleanupCheckMs: raw.OUTBOX_CLEANUP_CHECK_SECONDS * 1000,
    ltiKeyRotationCheckMs: raw.LTI_KEY_ROTATION_CHECK_SECONDS * 1000,
    ltiClockLeewaySeconds: raw.LTI_CLOCK_LEEWAY_SECONDS,
    ltiRosterSyncCheckMs: raw.LTI_ROSTER_SYNC_CHECK_SECONDS * 1000,
    identityAdmin: identityAdminConfig(raw),
    portalUrl: raw.PORTAL_URL.replace(/\/+$/, ''),
    ltiBroker: raw.LTI_BROKER_CLIENT_SECRET
      ? {
          clientId: raw.LTI_BROKER_CLIENT_ID,
          clientSecret: raw.LTI_BROKER_CLIENT_SECRET,
          alias: raw.LTI_BROKER_ALIAS,
        }
      : null,
    outboxPollMs: raw.OUTBOX_POLL_SECONDS * 1000,
    mail: mailConfig(raw),
    brightspace: brightspaceConfig(raw),
    logLevel: raw.LOG_LEVEL,
    metricsToken: raw.METRICS_TOKEN,
    shutdownDrainMs: raw.SHUTDOWN_DRAIN_SECONDS * 1000,
    shutdownGraceMs: raw.SHUTDOWN_GRACE_SECONDS * 1000,
    otlpEndpoint: raw.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}

/** The realm is the issuer's: `…/realms/main` → `main`. */
export function realmOfIssuer(issuer: string): string | null {
  const match = /\/realms\/([^/]+)\/?$/.exec(new URL(issuer).pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

function s3Config(raw: RawConfig): S3Config | null {
  const problems: string[] = [];
  const keyId = raw.STORAGE_ACCESS_KEY_ID;
  const secret = raw.STORAGE_SECRET_ACCESS_KEY;
  if ((keyId === undefined) !== (secret === undefined)) {
    problems.push('  STORAGE_ACCESS_KEY_ID, STORAGE_SECRET_ACCESS_KEY: give both or neither');
  }
  if (raw.STORAGE_URL === undefined) {
    // S3 settings without the endpoint would silently store on local disk instead.
    const stray = ['STORAGE_BUCKET', 'STORAGE_PUBLIC_URL', 'STORAGE_ACCESS_KEY_ID']
      .filter((name) => raw[name as keyof RawConfig] !== undefined)
      .map((name) => `  ${name}: needs STORAGE_URL`);
    // Files go to local disk then; a bucket to create would be a setting that silently does nothing.
    if (raw.STORAGE_CREATE_BUCKET) stray.push('  STORAGE_CREATE_BUCKET: needs STORAGE_URL');
    problems.push(...stray);
  } else if (raw.STORAGE_BUCKET === undefined) {
    problems.push('  STORAGE_BUCKET: required with STORAGE_URL');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid environment:\n${problems.join('\n')}`);
  if (raw.STORAGE_URL === undefined || raw.STORAGE_BUCKET === undefined) return null;
  return {
    endpoint: raw.STORAGE_URL.replace(/\/+$/, ''),
    publicEndpoint: raw.STORAGE_PUBLIC_URL?.replace(/\/+$/, ''),
    bucket: raw.STORAGE_BUCKET,
    region: raw.STORAGE_REGION,
    credentials:
      keyId !== undefined && secret !== undefined
        ? { accessKeyId: keyId, secretAccessKey: secret }
        : undefined,
    forcePathStyle: raw.STORAGE_FORCE_PATH_STYLE,
    createBucket: raw.STORAGE_CREATE_BUCKET,
  };
}

function mailConfig(raw: RawConfig): MailConfig | null {
  if (raw.SMTP_URL !== undefined && raw.MAIL_DEV_OUTBOX) {
    // Both would mean "real mail" and "a public list of every link" at once.
    throw new ConfigError('Invalid environment:\n  MAIL_DEV_OUTBOX: not with SMTP_URL');
  }
  if (raw.SMTP_URL === undefined && !raw.MAIL_DEV_OUTBOX) return null;
  return { from: raw.MAIL_FROM, productName: raw.PRODUCT_NAME, smtpUrl: raw.SMTP_URL };
}

export interface LtiBrokerConfig {
  clientId: string;
  clientSecret: string;
  /** The identity provider's alias of the broker: its redirect URI is `{OIDC_ISSUER}/broker/{alias}/endpoint`. */
  alias: string;
}

function identityAdminConfig(raw: RawConfig): IdentityAdminConfig | null {
  const { IDENTITY_ADMIN_URL: url, IDENTITY_ADMIN_CLIENT_ID: id } = raw;
  const secret = raw.IDENTITY_ADMIN_CLIENT_SECRET;
  if (url === undefined && id === undefined && secret === undefined) return null;
  // Half a configuration would look like "provisioning on" while every call fails.
  const missing = [
    ['IDENTITY_ADMIN_URL', url],
    ['IDENTITY_ADMIN_CLIENT_ID', id],
    ['IDENTITY_ADMIN_CLIENT_SECRET', secret],
  ]
    .filter(([, value]) => value === undefined)
    .map(([name]) => `  ${name}: required when any IDENTITY_ADMIN_* variable is set`);
  const realm = realmOfIssuer(raw.OIDC_ISSUER);
  if (realm === null) {
    missing.push('  OIDC_ISSUER: must end in /realms/<realm> for identity provisioning');
  }
  if (missing.length > 0 || url === undefined || id === undefined || secret === undefined) {
    throw new ConfigError(`Invalid environment:\n${missing.join('\n')}`);
  }
  return {
    baseUrl: url.replace(/\/+$/, ''),
    realm: realm ?? '',
    clientId: id,
    clientSecret: secret,
  };
}

function brightspaceConfig(raw: RawConfig): BrightspaceConfig | null {
  const { BRIGHTSPACE_HOST: host, BRIGHTSPACE_CLIENT_ID: id } = raw;
  const secret = raw.BRIGHTSPACE_CLIENT_SECRET;
  if (host === undefined && id === undefined && secret === undefined) return null;
  // Half a configuration would send users to an OAuth round trip that can never complete.
  const missing = [
    ['BRIGHTSPACE_HOST', host],
    ['BRIGHTSPACE_CLIENT_ID', id],
    ['BRIGHTSPACE_CLIENT_SECRET', secret],
  ]
    .filter(([, value]) => value === undefined)
    .map(([name]) => `  ${name}: required with the other BRIGHTSPACE_HOST/_CLIENT_* settings`);
  if (missing.length > 0 || host === undefined || id === undefined || secret === undefined) {
    throw new ConfigError(`Invalid environment:\n${missing.join('\n')}`);
  }
  return {
    host: host.replace(/\/+$/, ''),
    authUrl: raw.BRIGHTSPACE_AUTH_URL,
    tokenUrl: raw.BRIGHTSPACE_TOKEN_URL,
    clientId: id,
    clientSecret: secret,
    apiVersion: raw.BRIGHTSPACE_API_VERSION,
  };
}
