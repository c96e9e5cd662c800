import { ConfigError, Env, readEnv, Type } from '@portal/service-kit';

export { ConfigError };

/** Environment of the learning-platform stand-in, read in this one place and checked at start. */
export interface LmsConfig {
  /** GET /metrics answers only this bearer token; unset = 404. */
  metricsToken: string | undefined;
  port: number;
  host: string;
  /** Our own address: the LTI issuer and the base of every URL we hand to the tool. */
  publicUrl: string;
  /** The portal (tool) origin the browser uses: its login initiation, launch and JWKS live under /api/lti. */
  portalUrl: string;
  /** The portal's public keys (client assertions, deep linking responses); default `${portalUrl}/api/lti/jwks`. */
  toolJwksUrl: string;
  /** The LTI client id the portal is registered under here. */
  clientId: string;
  deploymentId: string;
  /** The Brightspace-style OAuth client of the portal. */
  brightspaceClientId: string;
  /** Unset: the Brightspace token endpoint refuses every client (nothing can be exchanged). */
  brightspaceClientSecret: string | null;
  /** Where the key and the course are kept; null: in memory. */
  dataDir: string | null;
  /** Origins besides the portal's the embedded launch's frame may show (its sign-in's identity provider). */
  frameOrigins: string[];
  /** /test/* (scores as JSON, the outage switch, the roster's changes), loopback only. */
  testEndpoints: boolean;
  logLevel: string;
}

const LmsEnvSchema = Type.Object({
  LMS_PORT: Env.Port(8100),
  // 'localhost' listens on both 127.0.0.1 and ::1, whichever the browser resolves.
  LMS_HOST: Type.String({ minLength: 1, default: 'localhost' }),
  LMS_URL: Type.Optional(Env.HttpUrl()),
  PORTAL_URL: Env.HttpUrl({ default: 'http://localhost:8080' }),
  // The API's own address works where the browser's portal URL (the host's /api proxy) is not up yet.
  LMS_TOOL_JWKS_URL: Type.Optional(Env.HttpUrl()),
  LMS_CLIENT_ID: Type.String({ minLength: 1, maxLength: 255, default: 'portal-tool' }),
  LMS_DEPLOYMENT_ID: Type.String({ minLength: 1, maxLength: 255, default: 'demo-deployment' }),
  BRIGHTSPACE_CLIENT_ID: Type.String({ minLength: 1, maxLength: 255, default: 'portal-brightspace' }),
  BRIGHTSPACE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 16, maxLength: 500 })),
  // memory://: nothing kept (a fresh key and course at every start), as PGLITE_DIR has it.
  LMS_DATA_DIR: Type.String({ minLength: 1, default: '.data' }),
  // Space- or comma-separated http(s) origins, checked one by one below.
  LMS_FRAME_ORIGINS: Type.Optional(Type.String({ maxLength: 2000 })),
  LMS_TEST_ENDPOINTS: Type.Union([Type.Literal('0'), Type.Literal('1')], { default: '0' }),
  LOG_LEVEL: Env.LogLevel(),
  METRICS_TOKEN: Env.MetricsToken(),
});

function frameOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((item) => {
      let url: URL | null = null;
      try {
        url = new URL(item);
      } catch {
        // reported below
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError(`LMS_FRAME_ORIGINS: ${item} is not an http(s) URL`);
      return url.origin;
    });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LmsConfig {
  const raw = readEnv(LmsEnvSchema, env);
  return {
    port: raw.LMS_PORT,
    host: raw.LMS_HOST.trim(),
    publicUrl: (raw.LMS_URL ?? `http://localhost:${raw.LMS_PORT}`).replace(/\/+$/, ''),
    portalUrl: raw.PORTAL_URL.replace(/\/+$/, ''),
    toolJwksUrl: raw.LMS_TOOL_JWKS_URL ?? `${raw.PORTAL_URL}/api/lti/jwks`,
    clientId: raw.LMS_CLIENT_ID,
    deploymentId: raw.LMS_DEPLOYMENT_ID,
    brightspaceClientId: raw.BRIGHTSPACE_CLIENT_ID,
    brightspaceClientSecret: raw.BRIGHTSPACE_CLIENT_SECRET ?? null,
    dataDir: raw.LMS_DATA_DIR.trim() === 'memory://' ? null : raw.LMS_DATA_DIR.trim(),
    frameOrigins: frameOrigins(raw.LMS_FRAME_ORIGINS),
    testEndpoints: raw.LMS_TEST_ENDPOINTS === '1',
    logLevel: raw.LOG_LEVEL,
    metricsToken: raw.METRICS_TOKEN,
  };
}
