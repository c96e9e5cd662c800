// Remotes are registered from /config.json at run time, never from the build, so each remote
// deploys and moves on its own.
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RouteObject } from '@portal/shared-ui';
import type { RuntimeConfig } from '@portal/contract';

export type RemoteName = keyof RuntimeConfig['remotes'];
export const REMOTE_NAMES: readonly RemoteName[] = ['simulation', 'reports', 'admin'];

let entries: RuntimeConfig['remotes'] | undefined;

/** Logs which remote failed and at which step; the error still reaches the area's boundary. */
const reportRemoteFailures = {
  name: 'portal-report-remote-failures',
  errorLoadRemote({ id, lifecycle, error }: { id: string; lifecycle: string; error: unknown }) {
    console.error(`Remote ${id} failed to load (${lifecycle})`, error);
    // Nothing returned: no fallback module, so the area shows its "unavailable" view.
    return undefined;
  },
};

export function registerPortalRemotes(remotes: RuntimeConfig['remotes']): void {
  entries = remotes;
  registerPlugins([reportRemoteFailures]);
  registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: remotes[name] })));
}

/**
 * Loads a remote's `./routes`. A retry (`attempt > 0`) first re-registers the remote with
 * `force`, which drops the runtime's cached entry and module so the next load really fetches.
 */
export async function loadRemoteRoutes(name: RemoteName, attempt = 0): Promise<RouteObject[]> {
  if (!entries) throw new Error('registerPortalRemotes() has not run');
  if (attempt > 0) registerRemotes([{ name, entry: entries[name] }], { force: true });
  const module = await loadRemote<{ default?: unknown }>(`${name}/routes`);
  const routes = module?.default;
  if (!Array.isArray(routes)) throw new Error(`Remote ${name}: ./routes has no default RouteObject[] export`);
  return routes as RouteObject[];
}
