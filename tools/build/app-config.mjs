// The build settings every front end (host and remotes) shares, in one place so the federation
// singletons and the bundle rules cannot drift apart between apps (docs/architecture.md).
// Node built-ins only: plugins are loaded from the app's own dependencies.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PureTypeBoxBuildersPlugin } from './pure-typebox-builders-plugin.mjs';
import { remoteManifest } from './remote-manifest.mjs';

export { PureTypeBoxBuildersPlugin };

/**
 * Libraries that must exist once per page, identical in every app. react-router and react-i18next
 * are not here: a shared module ships whole, so they reach the page through shared-ui's facade,
 * tree-shaken, in one copy.
 */
const SHARED_SINGLETONS = [
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
function installedVersion(appDir, name) {
  // Read through the app's own node_modules link: some packages do not export ./package.json.
  return JSON.parse(readFileSync(path.join(appDir, 'node_modules', name, 'package.json'), 'utf8'))
    .version;
}

/** The `shared` option of an app in `appDir`; every singleton must be one of its dependencies. */
function sharedConfig(appDir) {
  const pkg = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => {
      if (!(name in pkg.dependencies))
        throw new Error(`${pkg.name}: shared "${name}" is not a dependency`);
      const version = installedVersion(appDir, name);
      // Our own shared packages are strict: a remote built against a shared-ui or shared-auth
      // the page's copy does not satisfy must not run with `undefined` exports; the runtime
      // refuses it and the host shows "this area needs an update" (host/src/federation).
      const strictVersion = name.startsWith('@portal/');
      return [name, { singleton: true, version, requiredVersion: `^${version}`, strictVersion }];
    }),
  );
}

/** Federation options that are the same for the host and every remote. */
export function federationDefaults(appDir) {
  return {
    shared: sharedConfig(appDir),
    shareStrategy: 'loaded-first',
    // Types come from the contract (RouteObject[], shapes); no dts generation.
    dts: false,
    manifest: false,
    // Leaner runtime: remotes are always plain remoteEntry.js URLs (never mf-manifest.json, which
    // is all the snapshot plugin serves), and every app runs in a browser only.
    experiments: { optimization: { disableSnapshot: true, target: 'web' } },
  };
}

/**
 * The federation config of the remote `name` (a key of the remote manifest, contract/src/
 * remotes.json) in `appDir`: every remote exposes one module, its routes (src/routes.tsx), which
 * the host loads by that name.
 */
export function remoteFederationConfig(appDir, name) {
  remoteManifest(name);
  return {
    ...federationDefaults(appDir),
    name,
    filename: 'remoteEntry.js',
    exposes: { './routes': './src/routes.tsx' },
  };
}

// The federation runtime asks for the entry chunk's file name while the runtime is generated,
// before content hashes exist, only to learn its folder; the hash-free name has the same folder.
const hashedEntryName = (pathData) =>
  pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js';

/**
 * Everything of an app's webpack config but its plugins and dev server.
 * @param {{ dir: string, production: boolean, publicPath: string }} options
 */
export function baseWebpackConfig({ dir, production, publicPath }) {
  const fromHere = (...p) => path.join(dir, ...p);
  // react-router's package exports point at its development build only; the production build
  // beside it is about half the size. shared-ui's router facade bundles it.
  const reactRouterDist = path.join(
    realpathSync(fromHere('node_modules/react-router-dom')),
    '..',
    'react-router',
    'dist',
  );
  return {
    mode: production ? 'production' : 'development',
    entry: './src/index.ts',
    // No source maps in production: they would double the bytes users may download.
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: fromHere('dist'),
      publicPath,
      filename: production ? hashedEntryName : '[name].js',
      chunkFilename: production ? '[id].[contenthash:10].js' : '[name].js',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // pnpm links every package's own react; pin the app's copy so only one React can exist.
      alias: {
        react: path.dirname(fromHere('node_modules/react/package.json')),
        'react-dom': path.dirname(fromHere('node_modules/react-dom/package.json')),
        ...(production && {
          'react-router$': path.join(reactRouterDist, 'production/index.mjs'),
          'react-router/dom$': path.join(reactRouterDist, 'production/dom-export.mjs'),
        }),
      },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic' } },
                target: 'es2020',
              },
            },
          },
        },
      ],
    },
    performance: { hints: false },
  };
}

const FEDERATION_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'federation');
const BUNDLER_RUNTIME_ENTRY = /[\\/]webpack-bundler-runtime[\\/]dist[\\/]bundler\.js$/;

// The federation runtime packages the enhanced plugin brings (they are not the apps' own
// dependencies): resolved from the app's @module-federation/enhanced, as the plugin does.
function federationRuntimePackages(appDir) {
  const fromApp = createRequire(path.join(appDir, 'package.json'));
  const fromEnhanced = createRequire(fromApp.resolve('@module-federation/enhanced/webpack'));
  const bundlerRuntimeDir = path.dirname(
    fromEnhanced.resolve('@module-federation/webpack-bundler-runtime/package.json'),
  );
  const { version } = JSON.parse(
    readFileSync(path.join(bundlerRuntimeDir, 'package.json'), 'utf8'),
  );
  const injectCjs = fromEnhanced.resolve('@module-federation/inject-external-runtime-core-plugin');
  return { bundlerRuntimeDir, version, injectEsm: path.join(path.dirname(injectCjs), 'index.js') };
}

/**
 * What the host adds to its federation config to provide the one federation runtime of the page
 * (docs/architecture.md): `runtimePlugins` and the `alias` they need. `appDir`: the host's folder.
 * - runtime-core as the global `_FEDERATION_RUNTIME_CORE`, for the remotes' `externalRuntime`.
 *   This is the plugin `experiments.provideExternalRuntime` adds, but its ES module build: the
 *   option adds the CommonJS build, which requires the CommonJS runtime-core, so the host shipped
 *   a second whole runtime beside the ES module one its own runtime runs on (+22 kB gzip).
 * - the webpack bundler runtime (federation/provide-bundler-runtime.js), which the remotes'
 *   production builds take instead of their own copy (remoteWebpackConfig).
 */
export function hostFederationRuntime(appDir) {
  const { bundlerRuntimeDir, version, injectEsm } = federationRuntimePackages(appDir);
  if (!existsSync(injectEsm))
    throw new Error(`hostFederationRuntime: no ES module build at ${injectEsm}`);
  return {
    runtimePlugins: [
      injectEsm,
      [path.join(FEDERATION_DIR, 'provide-bundler-runtime.js'), { version }],
    ],
    alias: { '@module-federation/webpack-bundler-runtime': bundlerRuntimeDir },
  };
}

/**
 * In a remote's production build, the federation entry's bundler runtime becomes
 * federation/use-provided-bundler-runtime.js, which takes the host's (with the version this build
 * expects); with `externalRuntime` for runtime-core, remoteEntry.js then carries neither.
 */
class UseProvidedBundlerRuntimePlugin {
  constructor(appDir) {
    const { version } = federationRuntimePackages(appDir);
    this.replacement = `${path.join(FEDERATION_DIR, 'use-provided-bundler-runtime.js')}?version=${version}`;
  }

  apply(compiler) {
    new compiler.webpack.NormalModuleReplacementPlugin(
      BUNDLER_RUNTIME_ENTRY,
      this.replacement,
    ).apply(compiler);
  }
}

/**
 * webpack's own sharing runtime module and the federation plugin's both go into every runtime
 * chunk. The plugin's runs later and sets `__webpack_require__.S` and `.I` anew, so webpack's is
 * dead code, with its own copy of the shared-module list, in remoteEntry.js and the host's main
 * chunk: dropped where both are present. `appDir`: the app whose webpack builds.
 */
export class DropShadowedShareRuntimePlugin {
  constructor(appDir) {
    const fromApp = createRequire(path.join(appDir, 'package.json'));
    this.WebpackShareRuntimeModule = fromApp('webpack/lib/sharing/ShareRuntimeModule');
  }

  apply(compiler) {
    const name = 'DropShadowedShareRuntimePlugin';
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.hooks.afterRuntimeRequirements.tap(name, () => {
        const { chunkGraph } = compilation;
        for (const chunk of compilation.chunks) {
          const sharing = [...chunkGraph.getChunkRuntimeModulesIterable(chunk)].filter(
            (module) => module.name === 'sharing',
          );
          if (sharing.length < 2) continue;
          for (const module of sharing) {
            if (module instanceof this.WebpackShareRuntimeModule) {
              chunkGraph.disconnectChunkAndRuntimeModule(chunk, module);
            }
          }
        }
      });
    });
  }
}

/** Dev servers pass /api to the API, as the static servers do in production. */
export const apiProxy = () => [
  { context: ['/api'], target: process.env.API_URL ?? 'http://localhost:3000', xfwd: true },
];

/**
 * The whole webpack config of a remote: its federation config, the files it ships beside
 * remoteEntry.js, and for `webpack serve` the standalone page (src/bootstrap.tsx, built on
 * `@portal/shared-ui/standalone`) with /api proxied. A remote's webpack.config.js is one call;
 * its dev port and i18next namespace come from its entry in the remote manifest.
 * @param {{
 *   dir: string,
 *   federationConfig: { name: string, experiments?: object },
 *   copy?: { from: string, to: string }[],
 * }} options `copy` paths are relative to `dir`.
 */
export function remoteWebpackConfig({ dir, federationConfig, copy = [] }) {
  const { devPort, namespace } = remoteManifest(federationConfig.name);
  return async (_env, argv) => {
    const production = argv.mode !== 'development';
    const load = remotePluginLoader(dir);
    const { ModuleFederationPlugin } = await load('@module-federation/enhanced/webpack');
    const HtmlWebpackPlugin = production ? null : (await load('html-webpack-plugin')).default;
    const CopyWebpackPlugin = copy.length ? (await load('copy-webpack-plugin')).default : null;
    return {
      // 'auto': chunks load from wherever remoteEntry.js came from, so any origin can host it.
      ...baseWebpackConfig({ dir, production, publicPath: 'auto' }),
      plugins: [
        new ModuleFederationPlugin({
          ...federationConfig,
          experiments: {
            ...federationConfig.experiments,
            // Deployed, a remote runs inside the host's page and uses the federation runtime the
            // host provides (one copy per page); alone on its dev server it brings its own.
            externalRuntime: production,
          },
        }),
        // Likewise the bundler runtime: the host's, deployed; its own on the dev server.
        ...(production ? [new UseProvidedBundlerRuntimePlugin(dir)] : []),
        new DropShadowedShareRuntimePlugin(dir),
        new PureTypeBoxBuildersPlugin(dir),
        // Pictures and the like deploy and version with the remote, relative to its public path.
        ...(CopyWebpackPlugin
          ? [
              new CopyWebpackPlugin({
                patterns: copy.map(({ from, to }) => ({ from: path.join(dir, from), to })),
              }),
            ]
          : []),
        new RemoteLocalesPlugin({ dir: path.join(dir, 'locales'), namespace }),
        // Only the dev server needs a page; the deployed remote is just remoteEntry.js + chunks.
        ...(HtmlWebpackPlugin
          ? [new HtmlWebpackPlugin({ template: path.join(dir, 'public/index.html') })]
          : []),
      ],
      devServer: {
        port: Number(process.env.PORT ?? devPort),
        host: 'localhost',
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        proxy: apiProxy(),
      },
    };
  };
}

// Plugins are the app's own dependencies (this folder has no node_modules): resolve them from there.
function remotePluginLoader(dir) {
  const require = createRequire(path.join(dir, 'package.json'));
  return (name) => import(pathToFileURL(require.resolve(name)).href);
}

/**
 * Emits the remote's `locales/{lng}.json` as `locales/{lng}/{namespace}.json` beside its
 * remoteEntry.js: the page loads a remote's strings from the remote's own origin, so they deploy
 * with it (shared-ui createRemoteStrings). Invalid JSON fails the build.
 */
export class RemoteLocalesPlugin {
  /** @param {{ dir: string, namespace: string }} options */
  constructor({ dir, namespace }) {
    if (!/^[a-z][a-z0-9-]*$/.test(namespace ?? '')) {
      throw new Error(`RemoteLocalesPlugin: "${namespace}" is not a namespace name`);
    }
    this.dir = dir;
    this.namespace = namespace;
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    const stage = compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL;
    compiler.hooks.thisCompilation.tap('RemoteLocalesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'RemoteLocalesPlugin', stage }, () => {
        compilation.contextDependencies.add(this.dir);
        for (const file of readdirSync(this.dir).filter((f) => f.endsWith('.json'))) {
          const full = path.join(this.dir, file);
          compilation.fileDependencies.add(full);
          try {
            const strings = JSON.parse(readFileSync(full, 'utf8'));
            const lng = path.basename(file, '.json');
            compilation.emitAsset(
              `locales/${lng}/${this.namespace}.json`,
              new RawSource(JSON.stringify(strings)),
            );
          } catch (err) {
            compilation.errors.push(new compiler.webpack.WebpackError(`${full}: ${err.message}`));
          }
        }
      });
    });
  }
}
