import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { federationConfig } from './federation.config.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const fromHere = (...p) => path.join(dir, ...p);
// react-router's package exports point at its development build only; the production build
// beside it is about half the size. shared-ui's router facade bundles it (docs/architecture.md).
const reactRouterDist = path.join(realpathSync(fromHere('node_modules/react-router-dom')), '..', 'react-router', 'dist');
const DEV_PORT = Number(process.env.PORT ?? 8082);

// The federation runtime asks for the entry chunk's file name while the runtime is generated,
// before content hashes exist, only to learn its folder; the hash-free name has the same folder.
const hashedEntryName = (pathData) =>
  pathData.chunk?.contentHash?.javascript ? '[name].[contenthash:10].js' : '[name].js';

export default (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    // The standalone page (src/bootstrap.tsx) is for `webpack serve`; a host loads remoteEntry.js.
    entry: './src/index.ts',
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: fromHere('dist'),
      // 'auto': chunks load from wherever remoteEntry.js came from, so any origin can host it.
      publicPath: 'auto',
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
      // Only the dev server needs a page; the deployed remote is just remoteEntry.js + chunks.
      ...(production ? [] : [new HtmlWebpackPlugin({ template: fromHere('public/index.html') })]),
    ],
    performance: { hints: false },
    devServer: {
      port: DEV_PORT,
      host: 'localhost',
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: [{ context: ['/api'], target: process.env.API_URL ?? 'http://localhost:3000', xfwd: true }],
    },
  };
};
