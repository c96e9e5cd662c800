import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { fileURLToPath } from 'node:url';

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
  PGLITE_DIR: Type.String({ minLength: 1, default: DEFAULT_PGLITE_DIR }),
  OIDC_ISSUER: Type.String({ pattern: '^https?://', default: 'http://localhost:8180/realms/main' }),
  OIDC_CLIENT_ID: Type.String({ minLength: 1, default: 'frontend' }),
  SEED_DEMO: Type.Boolean({ default: true }),
  // Local-disk file storage (uploads, evidence images, installers).
  STORAGE_DIR: Type.String({ minLength: 1, default: DEFAULT_STORAGE_DIR }),
  // HMAC key of signed file URLs; unset = random per process (URLs die with it).
  STORAGE_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  SIGNED_URL_TTL_SECONDS: Type.Integer({ minimum: 10, maximum: 86400, default: 300 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export type RawConfig = Static<typeof ConfigSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  pgliteDir: string;
  oidcIssuer: string;
  oidcClientId: string;
  seedDemo: boolean;
  storageDir: string;
  storageSigningSecret: string | undefined;
  signedUrlTtlSeconds: number;
  logLevel: RawConfig['LOG_LEVEL'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    // An empty variable means "not set", as in most .env tooling.
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, picked));
  const errors = [...Value.Errors(ConfigSchema, converted)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.path.slice(1) || '(root)'}: ${e.message}`);
    throw new ConfigError(`Invalid environment:\n  ${lines.join('\n  ')}`);
  }
  const raw = converted as RawConfig;
  return {
    port: raw.API_PORT,
    host: raw.API_HOST,
    databaseUrl: raw.DATABASE_URL,
    pgliteDir: raw.PGLITE_DIR,
    oidcIssuer: raw.OIDC_ISSUER.replace(/\/+$/, ''),
    oidcClientId: raw.OIDC_CLIENT_ID,
    seedDemo: raw.SEED_DEMO,
    storageDir: raw.STORAGE_DIR,
    storageSigningSecret: raw.STORAGE_SIGNING_SECRET,
    signedUrlTtlSeconds: raw.SIGNED_URL_TTL_SECONDS,
    logLevel: raw.LOG_LEVEL,
  };
}
