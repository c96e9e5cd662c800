import { ConfigError, Env, readEnv, Type } from '@portal/service-kit';

export { ConfigError };

/** Environment of the simulator, read in this one place and checked at start. */
export interface SimulatorConfig {
  port: number;
  host: string;
  /** Origin of the API the simulator reports to (no /api/v1). */
  apiUrl: string;
  logLevel: string;
  /** GET /metrics answers only this bearer token; absent = no /metrics. */
  metricsToken?: string;
}

const SimulatorEnvSchema = Type.Object({
  SIMULATOR_PORT: Env.Port(8090),
  // 'localhost' listens on both 127.0.0.1 and ::1, whichever the browser resolves.
  SIMULATOR_HOST: Type.String({ minLength: 1, default: 'localhost' }),
  API_URL: Env.HttpUrl({ default: 'http://localhost:3000' }),
  LOG_LEVEL: Env.LogLevel(),
  METRICS_TOKEN: Env.MetricsToken(),
});

/** The API address given on the command line (`--api`), checked like API_URL. */
export function parseApiUrl(raw: string, name = 'API_URL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http or https, got "${raw}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const raw = readEnv(SimulatorEnvSchema, env);
  return {
    port: raw.SIMULATOR_PORT,
    host: raw.SIMULATOR_HOST.trim(),
    apiUrl: raw.API_URL,
    logLevel: raw.LOG_LEVEL,
    ...(raw.METRICS_TOKEN ? { metricsToken: raw.METRICS_TOKEN } : {}),
  };
}
