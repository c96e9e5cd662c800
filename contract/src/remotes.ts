// The one manifest of the portal's remotes: what the host, each remote and their builds must agree
// on. The data is JSON (remotes.json) because Node build and server scripts read it too, and they
// cannot import TypeScript; this module gives browser code and tests its types.
import manifest from './remotes.json' with { type: 'json' };

export interface RemoteManifest {
  /** Where the host mounts the remote's routes inside its layout, e.g. '/report'. */
  mount: string;
  /** Where the host mounts them bare, for a learning-platform (LTI) launch; absent when never. */
  ltiMount?: string;
  /** The port of its dev server and, by default, of its static server (its remoteEntry.js). */
  devPort: number;
  /** Its i18next namespace: its strings load from its own origin as locales/{lng}/{namespace}.json. */
  namespace: string;
}

export type RemoteName = keyof typeof manifest;

/**
 * Every remote by its federation name (the name its remoteEntry.js registers as). Typed by the
 * data itself, so `REMOTES.reports.ltiMount` is a string and `REMOTES.admin.ltiMount` an error.
 */
export const REMOTES = manifest satisfies Record<string, RemoteManifest>;

export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

/** The paths the host mounts a remote's routes at: its layout mount first, then its LTI mount. */
export function mountPaths(remote: RemoteManifest): string[] {
  return remote.ltiMount ? [remote.mount, remote.ltiMount] : [remote.mount];
}
