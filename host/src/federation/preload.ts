import { getInstance, getRemoteEntry, getRemoteInfo } from '@module-federation/enhanced/runtime';
import { loadRemoteRoutes, remoteEntryUrl, type RemoteName } from './remotes';

// Switching areas should not wait for the network (issue #11: Reports rendered ≤ 50 ms once
// preloaded). Preloads never report failures: opening the area does, with its retry view.

/** Fetches and runs a remote's remoteEntry.js; the runtime keeps it for the later loadRemote. */
export async function preloadRemoteEntry(name: RemoteName): Promise<void> {
  const origin = getInstance();
  const entry = remoteEntryUrl(name);
  if (!origin || !entry) return;
  try {
    await getRemoteEntry({ origin, remoteInfo: getRemoteInfo({ name, entry }) });
  } catch {
    // The area shows "unavailable" when it is opened.
  }
}

/** Loads a remote's route module (its entry first) ahead of a click: on hover or focus of its link. */
export function preloadRemoteRoutes(name: RemoteName): void {
  loadRemoteRoutes(name).catch(() => undefined);
}

/** The remotes' entries, once the browser has nothing better to do after sign-in. */
export function preloadRemoteEntriesWhenIdle(names: readonly RemoteName[]): () => void {
  const run = () => names.forEach((name) => void preloadRemoteEntry(name));
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(run, 1000);
  return () => window.clearTimeout(timer);
}
