// This remote's strings are its own i18next namespace, served beside its remoteEntry.js as
// locales/{lng}/simulation.json (tools/build), so they deploy with the remote; shared-ui's keys resolve
// from the host's namespace (fallbackNS).
import { registerNamespace } from '@portal/shared-ui';

export const NAMESPACE = 'simulation';

// webpack's run-time public path: where this remote's remoteEntry.js was loaded from.
declare const __webpack_public_path__: string;

/** Starts loading this remote's strings in the page's language; tests bundle them instead. */
export function registerRemoteStrings(): void {
  if (typeof __webpack_public_path__ === 'string') {
    void registerNamespace(NAMESPACE, __webpack_public_path__);
  }
}
