// A federation runtime plugin of the host, bundled into the host's main chunk. Besides
// runtime-core (_FEDERATION_RUNTIME_CORE), the host publishes its webpack bundler runtime — the
// functions every container's webpack runtime calls to load remotes, consume shared modules and
// initialise its container — so that a remote's remoteEntry.js need not carry its own copy
// (use-provided-bundler-runtime.js). The functions keep no state of their own: each container
// passes its own __webpack_require__ in every call.
import {
  attachShareScopeMap,
  bundlerRuntime,
} from '@module-federation/webpack-bundler-runtime/dist/index.js';
// The host exposes nothing, so its build leaves initContainerEntry out of bundlerRuntime; every
// remote needs it.
import { initContainerEntry } from '@module-federation/webpack-bundler-runtime/dist/initContainerEntry.js';

export const PROVIDED_BUNDLER_RUNTIME = '__PORTAL_FEDERATION_BUNDLER_RUNTIME__';

/** @param {{ version: string }} options the installed bundler runtime's version */
export default function provideBundlerRuntime({ version }) {
  globalThis[PROVIDED_BUNDLER_RUNTIME] = {
    version,
    bundlerRuntime: { ...bundlerRuntime, initContainerEntry },
    attachShareScopeMap,
  };
  return { name: 'portal-provide-bundler-runtime' };
}
