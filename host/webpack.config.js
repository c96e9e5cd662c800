import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import {
  apiProxy,
  baseWebpackConfig,
  DropShadowedShareRuntimePlugin,
  hostFederationRuntime,
  PureTypeBoxBuildersPlugin,
} from '../tools/build/app-config.mjs';
import { federationConfig } from './federation.config.js';
import { MergeLocalesPlugin } from './build/merge-locales-plugin.js';
import { readServerConfig, toRuntimeConfig } from './server-config.mjs';

const dir = path.dirname(fileURLToPath(import.meta.url));

/**
 * What every signed-in page needs before it can render: the shared libraries and their own
 * dependencies, and shared-ui's and shared-auth's main entries (`shared-ui/forms` and
 * `shared-ui/widgets` are bundled where they are used). Shipped as one file instead of ten:
 * gzip compresses them better together (~6 kB less on a first visit; `pnpm bench:bundle --list`
 * shows the files) and the page makes nine requests fewer. Keep it to what the first screen
 * needs: a module matched here is downloaded on every visit.
 */
const FIRST_VISIT_MODULES = new RegExp(
  [
    String.raw`[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-i18next|i18next|styled-components|stylis|swr|dequal|use-sync-external-store)[\\/]`,
    String.raw`[\\/]shared-(ui|auth)[\\/]src[\\/](?!forms[\\/]|widgets[\\/]|test|.*__tests__)`,
    // The contract modules those two entries run (not the TypeBox schemas, which stay types).
    String.raw`[\\/]contract[\\/]src[\\/](field-messages|permissions)\.ts$`,
  ].join('|'),
);
const fromHere = (...p) => path.join(dir, ...p);

export default (_env, argv) => {
  const production = argv.mode !== 'development';
  const base = baseWebpackConfig({ dir, production, publicPath: '/' });
  // The host provides the federation runtime (runtime-core and the bundler runtime) that the
  // remotes' production builds expect instead of shipping their own copy.
  const federationRuntime = hostFederationRuntime(dir);
  return {
    // Absolute public path: the SPA serves index.html for deep paths like /user/1/preference.
    ...base,
    resolve: { ...base.resolve, alias: { ...base.resolve.alias, ...federationRuntime.alias } },
    optimization: {
      splitChunks: {
        cacheGroups: {
          firstVisit: {
            test: (module) => FIRST_VISIT_MODULES.test(module.resource ?? ''),
            name: 'first-visit',
            chunks: 'async',
            enforce: true,
            priority: 30,
          },
        },
      },
    },
    plugins: [
      new ModuleFederationPlugin({
        ...federationConfig,
        runtimePlugins: [...federationConfig.runtimePlugins, ...federationRuntime.runtimePlugins],
      }),
      new DropShadowedShareRuntimePlugin(dir),
      new PureTypeBoxBuildersPlugin(dir),
      new HtmlWebpackPlugin({ template: fromHere('public/index.html') }),
      new CopyWebpackPlugin({
        patterns: [
          { from: fromHere('public'), globOptions: { ignore: ['**/index.html'] } },
          // The same page for the sign-ins of the pages learning platforms frame (server.mjs).
          { from: fromHere('public/silent-check-sso.html'), to: 'lti/silent-check-sso.html' },
        ],
      }),
      new MergeLocalesPlugin({
        dirs: [fromHere('locales'), fromHere('node_modules/@portal/shared-ui/locales')],
      }),
    ],
    devServer: {
      port: Number(process.env.HOST_PORT ?? 8080),
      host: 'localhost',
      historyApiFallback: true,
      headers: { 'Content-Security-Policy': "frame-ancestors 'self'" },
      proxy: apiProxy(),
      setupMiddlewares: (middlewares, devServer) => {
        devServer.app.get('/config.json', (_req, res) =>
          res.json(toRuntimeConfig(readServerConfig())),
        );
        return middlewares;
      },
    },
  };
};
