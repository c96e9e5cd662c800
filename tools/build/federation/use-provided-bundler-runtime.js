// Stands in for @module-federation/webpack-bundler-runtime in a remote's production build
// (remoteWebpackConfig): the remote's federation entry takes the bundler runtime the host
// published (provide-bundler-runtime.js) instead of bundling its own. The remote keeps its own
// @module-federation/runtime module: that one holds the container's federation instance, and a
// copy shared with the host would hand the host's loadRemote() the last remote's instance.
/* global __resourceQuery -- webpack's: the query of this module's request */
import * as runtime from '@module-federation/runtime';

const PROVIDED_BUNDLER_RUNTIME = '__PORTAL_FEDERATION_BUNDLER_RUNTIME__';
// The version this remote was built with, from the replacement's resource query.
const expected = new URLSearchParams(__resourceQuery).get('version');
const provided = globalThis[PROVIDED_BUNDLER_RUNTIME];
if (provided?.version !== expected) {
  // Thrown while remoteEntry.js runs: the host sees the remote as unavailable, in its area only.
  throw new Error(
    `This remote needs the federation bundler runtime ${expected} from the host page; ` +
      `the page provides ${provided ? provided.version : 'none'}.`,
  );
}

export default {
  runtime,
  instance: undefined,
  initOptions: undefined,
  bundlerRuntime: { ...provided.bundlerRuntime },
  attachShareScopeMap: provided.attachShareScopeMap,
  bundlerRuntimeOptions: {},
};
