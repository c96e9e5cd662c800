// This remote's one federation config. The shared list is the same in every app
// (docs/architecture.md); versions come from what package.json pins through the catalog.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export const REMOTE_NAME = 'simulation';

// react-router and react-i18next are not here: a shared module ships whole, so they reach the
// page through shared-ui's facade, tree-shaken, in one copy (docs/architecture.md).
export const SHARED_SINGLETONS = [
  'react',
  'react-dom',
  'swr',
  'i18next',
  'styled-components',
  '@portal/shared-auth',
  '@portal/shared-ui',
];

// package.json says `catalog:` / `workspace:*`, not a semver range; the catalog pins one exact
// version, so the installed package's version is what package.json means.
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
  name: REMOTE_NAME,
  filename: 'remoteEntry.js',
  exposes: { './routes': './src/routes.tsx' },
  shared: sharedConfig(),
  shareStrategy: 'loaded-first',
  dts: false,
  manifest: false,
  // Leaner runtime: remotes are always plain remoteEntry.js URLs (never mf-manifest.json, which
  // is all the snapshot plugin serves), and every app runs in a browser only.
  experiments: { optimization: { disableSnapshot: true, target: 'web' } },
};
