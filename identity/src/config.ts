import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

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
  logLevel: string;
}

export const DEFAULT_PORT = 8180;
export const DEFAULT_ISSUER = 'http://localhost:8180/realms/main';
export const DEFAULT_FRONTEND_ORIGINS = ['http://localhost:8080', 'http://localhost:8088'];
export const DEFAULT_ACCESS_TOKEN_TTL = 300;
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.data', import.meta.url));

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function parseInteger(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

export function parseIssuer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`IDENTITY_ISSUER must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`IDENTITY_ISSUER must use http or https, got "${raw}"`);
  }
  if (url.search || url.hash) {
    throw new ConfigError('IDENTITY_ISSUER must not have a query or fragment');
  }
  // Keycloak issuers never end in a slash, and token `iss` must match the configured value exactly.
  const path = url.pathname.replace(/\/+$/, '');
  if (!path) {
    throw new ConfigError('IDENTITY_ISSUER needs a realm path such as /realms/main');
  }
  return `${url.origin}${path}`;
}

export function parseOrigins(raw: string): string[] {
  const origins = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part);
      } catch {
        throw new ConfigError(`FRONTEND_ORIGINS entry "${part}" is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new ConfigError(`FRONTEND_ORIGINS entry "${part}" must use http or https`);
      }
      if (url.pathname !== '/' || url.search || url.hash) {
        throw new ConfigError(`FRONTEND_ORIGINS entry "${part}" must be an origin only (scheme://host:port)`);
      }
      return url.origin;
    });
  if (origins.length === 0) {
    throw new ConfigError('FRONTEND_ORIGINS must list at least one origin');
  }
  return [...new Set(origins)];
}

/** Reads the environment once; every other module gets its settings from here. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const port = env.IDENTITY_PORT ? parseInteger('IDENTITY_PORT', env.IDENTITY_PORT, 0, 65535) : DEFAULT_PORT;
  const cookieKeys = (env.IDENTITY_COOKIE_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (cookieKeys.some((key) => key.length < 16)) {
    throw new ConfigError('IDENTITY_COOKIE_KEYS entries must be at least 16 characters long');
  }
  const dataDir = env.IDENTITY_DATA_DIR === undefined ? DEFAULT_DATA_DIR : env.IDENTITY_DATA_DIR.trim() || null;

  return {
    issuer: parseIssuer(env.IDENTITY_ISSUER ?? DEFAULT_ISSUER),
    port,
    host: env.BIND_HOST?.trim() || '127.0.0.1',
    frontendOrigins: parseOrigins(env.FRONTEND_ORIGINS ?? DEFAULT_FRONTEND_ORIGINS.join(',')),
    accessTokenTtl: env.ACCESS_TOKEN_TTL
      ? parseInteger('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 10, 86_400)
      : DEFAULT_ACCESS_TOKEN_TTL,
    // Random keys mean sessions do not survive a restart, which is fine for a local provider.
    cookieKeys: cookieKeys.length > 0 ? cookieKeys : [randomBytes(32).toString('base64url')],
    dataDir,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
  };
}
