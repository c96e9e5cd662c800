/** Environment of the simulator, read in this one place and checked at start. */
export interface SimulatorConfig {
  port: number;
  host: string;
  /** Origin of the API the simulator reports to (no /api/v1). */
  apiUrl: string;
  logLevel: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** An empty variable counts as unset, as in most .env tooling. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

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
  const rawPort = read(env, 'SIMULATOR_PORT') ?? '8090';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new ConfigError(`SIMULATOR_PORT must be an integer between 0 and 65535, got "${rawPort}"`);
  }
  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    port,
    // 'localhost' listens on both 127.0.0.1 and ::1, whichever the browser resolves.
    host: read(env, 'SIMULATOR_HOST') ?? 'localhost',
    apiUrl: parseApiUrl(read(env, 'API_URL') ?? 'http://localhost:3000'),
    logLevel,
  };
}
