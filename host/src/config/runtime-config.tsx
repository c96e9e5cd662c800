import { createContext, useContext, type ReactNode } from 'react';
import type { RuntimeConfig } from '@portal/contract';
import { REMOTE_NAMES } from '@portal/contract/remotes';

export const RUNTIME_CONFIG_PATH = '/config.json';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the parts the browser cannot work without, so a bad deployment fails with a clear line. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  const problems: string[] = [];
  const str = (v: unknown, name: string) => {
    if (typeof v !== 'string') problems.push(`${name} must be a string`);
  };
  if (!isObject(value)) throw new Error(`${RUNTIME_CONFIG_PATH}: expected an object`);
  str(value.productName, 'productName');
  str(value.version, 'version');
  str(value.apiBaseUrl, 'apiBaseUrl');
  if (!isObject(value.oidc)) problems.push('oidc must be an object');
  else {
    str(value.oidc.authority, 'oidc.authority');
    str(value.oidc.clientId, 'oidc.clientId');
  }
  if (!isObject(value.remotes)) problems.push('remotes must be an object');
  else for (const name of REMOTE_NAMES) str(value.remotes[name], `remotes.${name}`);
  if (!isObject(value.launch)) problems.push('launch must be an object');
  else {
    if (value.launch.simulatorUrl !== null) str(value.launch.simulatorUrl, 'launch.simulatorUrl');
    for (const name of ['launchTimeoutMs', 'statusPollMs']) {
      const n = value.launch[name];
      if (typeof n !== 'number' || !(n > 0)) problems.push(`launch.${name} must be a positive number`);
    }
  }
  if (value.brightspaceHost !== null) str(value.brightspaceHost, 'brightspaceHost');
  if (problems.length > 0) throw new Error(`${RUNTIME_CONFIG_PATH}: ${problems.join('; ')}`);
  return value as unknown as RuntimeConfig;
}

export async function fetchRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl(RUNTIME_CONFIG_PATH, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${RUNTIME_CONFIG_PATH}: HTTP ${response.status}`);
  return parseRuntimeConfig(await response.json());
}

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function RuntimeConfigProvider({ config, children }: { config: RuntimeConfig; children?: ReactNode }) {
  return <RuntimeConfigContext.Provider value={config}>{children}</RuntimeConfigContext.Provider>;
}

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig() must be used inside <RuntimeConfigProvider>.');
  return config;
}
