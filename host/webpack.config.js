import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { federationConfig } from './federation.config.js';
import { MergeLocalesPlugin } from './build/merge-locales-plugin.js';
import { readServerConfig, toRuntimeConfig } from './server-config.mjs';

const dir = path.dirname(fileURLToPath(import.meta.url));
const fromHere = (...p) => path.join(dir, ...p);
// react-router's package exports point at its development build only; the production build
// beside it is about half the size. shared-ui's router facade bundles it (docs/architecture.md).
const reactRouterDist = path.join(realpathSync(fromHere('node_modules/react-router-dom')), '..', 'react-router', 'dist');

// The federation runtime asks for the entry chunk's file name while the runtime is generated,
// before content hashes exist, only to learn its folder; the hash-free name has the same folder.
const hashedEntryName = (pathData) =>
  pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js';

export default (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: './src/index.ts',
    // No source maps in production: they would double the bytes users may download (budget G).
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: fromHere('dist'),
      // Absolute: the SPA serves index.html for deep paths like /user/1/preference.
      publicPath: '/',
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
    plugins: [
      new ModuleFederationPlugin(federationConfig),
      new HtmlWebpackPlugin({ template: fromHere('public/index.html') }),
      new CopyWebpackPlugin({
        patterns: [{ from: fromHere('public'), globOptions: { ignore: ['**/index.html'] } }],
      }),
      new MergeLocalesPlugin({ dirs: [fromHere('locales'), fromHere('node_modules/@portal/shared-ui/locales')] }),
    ],
    performance: { hints: false },
    devServer: {
      port: Number(process.env.HOST_PORT ?? 8080),
      host: 'localhost',
      historyApiFallback: true,
      headers: { 'Content-Security-Policy': "frame-ancestors 'self'" },
      proxy: [{ context: ['/api'], target: process.env.API_URL ?? 'http://localhost:3000', xfwd: true }],
      setupMiddlewares: (middlewares, devServer) => {
        devServer.app.get('/config.json', (_req, res) => res.json(toRuntimeConfig(readServerConfig())));
        return middlewares;
      },
    },
  };
};
