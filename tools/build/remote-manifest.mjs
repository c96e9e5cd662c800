// The remote manifest (@portal/contract/remotes.json) for Node: build configs and servers cannot
// import the contract's TypeScript, so they read its data here.
import { createRequire } from 'node:module';

/** @typedef {{ mount: string, ltiMount?: string, devPort: number, namespace: string }} RemoteManifest */

/** @type {Record<string, RemoteManifest>} every remote by its federation name */
export const REMOTES = createRequire(import.meta.url)('../../contract/src/remotes.json');

/** One remote's entry; a name the manifest does not know is a typo that must stop the build. */
export function remoteManifest(name) {
  const remote = REMOTES[name];
  if (!remote) throw new Error(`"${name}" is not a remote of contract/src/remotes.json`);
  return remote;
}
