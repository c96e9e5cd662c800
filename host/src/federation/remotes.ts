// Remotes are registered from /config.json at run time, never from the build, so each remote
// deploys and moves on its own.
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RouteObject } from '@portal/shared-ui';
import type { RuntimeConfig } from '@portal/contract';
import { REMOTE_NAMES, type RemoteName } from '@portal/contract/remotes';

export { REMOTE_NAMES, type RemoteName };

let entries: RuntimeConfig['remotes'] | undefined;
/** Route trees already loaded (preloaded or visited), so an area opens without a loading step. */
const loadedRoutes = new Map<RemoteName, RouteObject[]>();

/** The last load failure per remote, so the area can tell an incompatible build from an outage. */
const lastFailure = new Map<string, unknown>();

/** A remote built against a shared package version this page does not satisfy. */
export class IncompatibleRemoteError extends Error {
  constructor(
    readonly remote: string,
    readonly sharedModule: string,
    readonly provided: string,
    readonly required: string,
  ) {
    super(`Remote ${remote} needs ${sharedModule} ${required}; this portal provides ${provided}`);
    this.name = 'IncompatibleRemoteError';
  }
}

// The federation runtime's refusal of a strict singleton (runtime-core utils/share.js).
const VERSION_REFUSAL =
  /Version (\S+) from .* of shared singleton module (\S+) does not satisfy the requirement of (\S+) which needs ([^\s)]+)/;

/** The incompatibility an error describes, if it is the runtime's version refusal. */
export function incompatibility(remote: string, error: unknown): IncompatibleRemoteError | null {
  const message = error instanceof Error ? error.message : String(error);
  const match = VERSION_REFUSAL.exec(message);
  if (!match) return null;
  const [, provided = '', sharedModule = '', , required = ''] = match;
  return new IncompatibleRemoteError(remote, sharedModule, provided, required);
}

/** Logs which remote failed and at which step; the error still reaches the area's boundary. */
const reportRemoteFailures = {
  name: 'portal-report-remote-failures',
  errorLoadRemote({ id, lifecycle, error }: { id: string; lifecycle: string; error: unknown }) {
    lastFailure.set(id.split('/')[0] ?? id, error);
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

/** Where a registered remote's remoteEntry.js is, or undefined before registration. */
export function remoteEntryUrl(name: RemoteName): string | undefined {
  return entries?.[name];
}

/**
 * Loads a remote's `./routes`. A retry (`attempt > 0`) first re-registers the remote with
 * `force`, which drops the runtime's cached entry and module so the next load really fetches.
 */
export async function loadRemoteRoutes(name: RemoteName, attempt = 0): Promise<RouteObject[]> {
  if (!entries) throw new Error('registerPortalRemotes() has not run');
  if (attempt > 0) {
    loadedRoutes.delete(name);
    registerRemotes([{ name, entry: entries[name] }], { force: true });
    // The forced registration drops the module the runtime kept, and with it that load's failure.
    lastFailure.delete(name);
  }
  // Kept otherwise: after a refusal the runtime keeps the half-run module, and the next load (the
  // click, after pointing at the link preloaded and failed) returns it without an error.
  let module: { default?: unknown } | null;
  try {
    module = await loadRemote<{ default?: unknown }>(`${name}/routes`);
  } catch (error) {
    throw incompatibility(name, error) ?? error;
  }
  const refused = incompatibility(name, lastFailure.get(name));
  if (refused) throw refused;
  const routes = module?.default;
  if (!Array.isArray(routes))
    throw new Error(`Remote ${name}: ./routes has no default RouteObject[] export`);
  loadedRoutes.set(name, routes as RouteObject[]);
  return routes as RouteObject[];
}

/** The remote's route tree if it has loaded already, else undefined. */
export function loadedRemoteRoutes(name: RemoteName): RouteObject[] | undefined {
  return loadedRoutes.get(name);
}
