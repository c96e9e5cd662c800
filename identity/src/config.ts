import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { Env, readEnv, Type } from '@portal/service-kit';

import { ConfigError } from '@portal/service-kit';

import { type IdentityProviderRepresentation, launchIdentityProvider } from './broker/identity-providers';

export { ConfigError };

export interface IdentityConfig {
  /** Full issuer URL; its path (e.g. `/realms/main`) is where the provider is mounted. */
  issuer: string;
  port: number;
  host: string;
  /** Origins of the front ends allowed to use the `frontend` client (redirects, CORS, framing). */
  frontendOrigins: string[];
  /** Access-token lifetime in seconds. */
  accessTokenTtl: number;
  /** Keygrip keys for signed cookies; the first one signs. */
  cookieKeys: string[];
  /** Where the signing key is persisted between restarts; null keeps it in memory only. */
  dataDir: string | null;
  /** Secret of the `portal-api` service client; undefined = no such client, no admin API. */
  serviceClientSecret?: string;
  /** SMTP server URL for invitation mails; undefined = the local outbox at /dev/outbox. */
  smtpUrl?: string;
  mailFrom: string;
  productName: string;
  logLevel: string;
  /** Operations (as the API's): /metrics token, drain and deadline of a stop, the OTLP collector. */
  metricsToken: string | undefined;
  shutdownDrainMs: number;
  shutdownGraceMs: number;
  otlpEndpoint: string | undefined;
  /**
   * Development mode (IDENTITY_DEV_MODE=true; `npm start` and the e2e stack set it): without SMTP
   * the mails go to the browsable outbox at /dev/outbox. Off (production), SMTP_URL is required.
   */
  devMode: boolean;
  /** SEED_DEMO: the demo accounts with their known password, as the API's demo data. */
  seedDemo: boolean;
  /** Brokered providers (Keycloak's `identityProviders`): the portal's launch sign-in when LTI_BROKER_URL is set. */
  identityProviders: IdentityProviderRepresentation[];
}

export const DEFAULT_PORT = 8180;
export const DEFAULT_ISSUER = 'http://localhost:8180/realms/main';
/** The portal of `npm start`. The e2e suite's second host (:8088) is added by the test stack only. */
export const DEFAULT_FRONTEND_ORIGINS = ['http://localhost:8080'];
export const DEFAULT_ACCESS_TOKEN_TTL = 300;
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.data', import.meta.url));
export const DEFAULT_PRODUCT_NAME = 'Simulation Portal';
export const DEFAULT_MAIL_FROM = `"${DEFAULT_PRODUCT_NAME}" <no-reply@localhost>`;
/** The launch broker's alias and this realm's client at it (the API's LTI_BROKER_* defaults). */
export const DEFAULT_BROKER_ALIAS = 'lti';
export const DEFAULT_BROKER_CLIENT_ID = 'portal-identity';
/** Client secrets are compared, never derived from; this length keeps them beyond guessing. */
const MIN_SECRET_LENGTH = 16;

function parseSmtpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('must use smtp: or smtps:');
  return url.href;
}

/** Keycloak issuers never end in a slash, and token `iss` must match the configured value exactly. */
export function parseIssuer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`must use http or https, got "${raw}"`);
  }
  if (url.search || url.hash) throw new Error('must not have a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path) throw new Error('needs a realm path such as /realms/main');
  return `${url.origin}${path}`;
}

export const IdentityEnvSchema = Type.Object({
  IDENTITY_PORT: Env.Port(DEFAULT_PORT),
  IDENTITY_ISSUER: Type.Transform(Type.String({ default: DEFAULT_ISSUER }))
    .Decode(parseIssuer)
    .Encode((issuer) => issuer),
  BIND_HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  FRONTEND_ORIGINS: Env.Origins({ default: DEFAULT_FRONTEND_ORIGINS.join(',') }),
  ACCESS_TOKEN_TTL: Env.Integer({ minimum: 10, maximum: 86_400, default: DEFAULT_ACCESS_TOKEN_TTL }),
  IDENTITY_COOKIE_KEYS: Type.Optional(
    Type.Transform(Type.String())
      .Decode((raw) => {
        const keys = raw
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean);
        if (keys.some((key) => key.length < 16)) throw new Error('entries must be at least 16 characters long');
        return keys;
      })
      .Encode((keys) => keys.join(',')),
  ),
  // Empty means "keep the signing key in memory only".
  IDENTITY_DATA_DIR: Type.String({ default: DEFAULT_DATA_DIR, keepEmpty: true }),
  IDENTITY_SERVICE_CLIENT_SECRET: Type.Optional(
    Type.String({ minLength: MIN_SECRET_LENGTH, errorMessage: `must be at least ${MIN_SECRET_LENGTH} characters long` }),
  ),
  SMTP_URL: Type.Optional(
    Type.Transform(Type.String())
      .Decode(parseSmtpUrl)
      .Encode((url) => url),
  ),
  MAIL_FROM: Type.String({ minLength: 3, default: DEFAULT_MAIL_FROM }),
  PRODUCT_NAME: Type.String({ minLength: 1, default: DEFAULT_PRODUCT_NAME }),
  LOG_LEVEL: Env.LogLevel(),
  IDENTITY_DEV_MODE: Type.Boolean({ default: false }),
  SEED_DEMO: Type.Boolean({ default: false }),
  // A launch is a sign-in (issue #22 point 1): the portal API's OpenID provider for launched
  // users, brokered as identity provider LTI_BROKER_ALIAS with the confidential client
  // LTI_BROKER_CLIENT_ID / LTI_BROKER_CLIENT_SECRET (the API's LTI_BROKER_* hold the same values).
  LTI_BROKER_URL: Type.Optional(
    Type.Transform(Type.String())
      .Decode(parseIssuer)
      .Encode((issuer) => issuer),
  ),
  LTI_BROKER_CLIENT_ID: Type.String({ minLength: 1, maxLength: 255, default: DEFAULT_BROKER_CLIENT_ID }),
  LTI_BROKER_CLIENT_SECRET: Type.Optional(
    Type.String({ minLength: MIN_SECRET_LENGTH, errorMessage: `must be at least ${MIN_SECRET_LENGTH} characters long` }),
  ),
  LTI_BROKER_ALIAS: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: DEFAULT_BROKER_ALIAS, errorMessage: 'must be 1–64 letters, digits, - or _' }),
  // Operations, as the API's (docs/deploy.md, "Health and metrics").
  METRICS_TOKEN: Env.MetricsToken(),
  SHUTDOWN_GRACE_SECONDS: Env.ShutdownGraceSeconds(),
  SHUTDOWN_DRAIN_SECONDS: Env.ShutdownDrainSeconds(),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Env.HttpUrl()),
});

/** Reads the environment once; every other module gets its settings from here. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const raw = readEnv(IdentityEnvSchema, env);
  // The outbox lists live set-password links to anyone who can reach it: only for development.
  if (!raw.SMTP_URL && !raw.IDENTITY_DEV_MODE) {
    throw new ConfigError(
      'Invalid environment:\n  SMTP_URL: required outside development mode: invitation mails carry set-password links ' +
        'and must go to their recipients (set IDENTITY_DEV_MODE=true for the local outbox at /dev/outbox)',
    );
  }
  if ((raw.LTI_BROKER_URL === undefined) !== (raw.LTI_BROKER_CLIENT_SECRET === undefined)) {
    throw new ConfigError('Invalid environment:\n  LTI_BROKER_URL, LTI_BROKER_CLIENT_SECRET: set both or neither');
  }
  // As the API's: the grace runs from the SIGTERM, so a drain as long cuts off every request in flight.
  if (raw.SHUTDOWN_DRAIN_SECONDS >= raw.SHUTDOWN_GRACE_SECONDS) {
    throw new ConfigError(
      `Invalid environment:\n  SHUTDOWN_DRAIN_SECONDS: ${raw.SHUTDOWN_DRAIN_SECONDS} must be less than SHUTDOWN_GRACE_SECONDS (${raw.SHUTDOWN_GRACE_SECONDS}), which counts from the SIGTERM and must leave time for the requests in flight`,
    );
  }
  const cookieKeys = raw.IDENTITY_COOKIE_KEYS ?? [];
  return {
    issuer: raw.IDENTITY_ISSUER,
    port: raw.IDENTITY_PORT,
    host: raw.BIND_HOST.trim(),
    frontendOrigins: raw.FRONTEND_ORIGINS,
    accessTokenTtl: raw.ACCESS_TOKEN_TTL,
    // Random keys mean sessions do not survive a restart, which is fine for a local provider.
    cookieKeys: cookieKeys.length > 0 ? cookieKeys : [randomBytes(32).toString('base64url')],
    dataDir: raw.IDENTITY_DATA_DIR.trim() || null,
    ...(raw.IDENTITY_SERVICE_CLIENT_SECRET ? { serviceClientSecret: raw.IDENTITY_SERVICE_CLIENT_SECRET } : {}),
    ...(raw.SMTP_URL ? { smtpUrl: raw.SMTP_URL } : {}),
    mailFrom: raw.MAIL_FROM.trim(),
    productName: raw.PRODUCT_NAME.trim(),
    logLevel: raw.LOG_LEVEL,
    devMode: raw.IDENTITY_DEV_MODE,
    seedDemo: raw.SEED_DEMO,
    identityProviders:
      raw.LTI_BROKER_URL && raw.LTI_BROKER_CLIENT_SECRET
        ? [
            launchIdentityProvider({
              alias: raw.LTI_BROKER_ALIAS,
              issuer: raw.LTI_BROKER_URL,
              clientId: raw.LTI_BROKER_CLIENT_ID,
              clientSecret: raw.LTI_BROKER_CLIENT_SECRET,
            }),
          ]
        : [],
    metricsToken: raw.METRICS_TOKEN,
    shutdownDrainMs: raw.SHUTDOWN_DRAIN_SECONDS * 1000,
    shutdownGraceMs: raw.SHUTDOWN_GRACE_SECONDS * 1000,
    otlpEndpoint: raw.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}
