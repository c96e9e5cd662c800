// The host's one federation config. Remote locations are NOT listed here: the browser learns them
// from /config.json at run time (src/federation/register-remotes.ts), so a remote redeploys on its
// own without rebuilding the host.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// react-router and react-i18next are not here: a shared module ships whole, so they reach the
// page through shared-ui's facade, tree-shaken, in one copy (docs/architecture.md).
/** Libraries that must exist once per page; the same list in every app (docs/architecture.md). */
export const SHARED_SINGLETONS = [
  'react',
  'react-dom',
  'swr',
  'i18next',
  'styled-components',
  '@portal/shared-auth',
  '@portal/shared-ui',
];

// package.json says `catalog:` / `workspace:*`, which is not a semver range; the catalog pins one
// exact version, so the installed package's version is what package.json means.
function installedVersion(name) {
  // Read through the app's own node_modules link: some packages do not export ./package.json.
  const file = new URL(`./node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

export function sharedConfig() {
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => {
      if (!(name in pkg.dependencies)) throw new Error(`${pkg.name}: shared "${name}" is not a dependency`);
      const version = installedVersion(name);
      return [name, { singleton: true, version, requiredVersion: `^${version}` }];
    }),
  );
}

export const federationConfig = {
  name: 'host',
  remotes: {},
  shared: sharedConfig(),
  shareStrategy: 'loaded-first',
  runtimePlugins: [],
  // Types of remotes come from the contract (RouteObject[]); no dts generation in the host.
  dts: false,
  manifest: false,
  // Leaner runtime: remotes are always plain remoteEntry.js URLs (never mf-manifest.json, which
  // is all the snapshot plugin serves), and every app runs in a browser only.
  experiments: { optimization: { disableSnapshot: true, target: 'web' } },
};
