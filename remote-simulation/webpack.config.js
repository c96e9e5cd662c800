import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { apiProxy, baseWebpackConfig } from '../tools/build/app-config.mjs';
import { federationConfig } from './federation.config.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const fromHere = (...p) => path.join(dir, ...p);
const DEV_PORT = Number(process.env.PORT ?? 8081);

export default (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    // The standalone page (src/bootstrap.tsx) is for `webpack serve`; a host loads remoteEntry.js.
    // 'auto': chunks load from wherever remoteEntry.js came from, so any origin can host it.
    ...baseWebpackConfig({ dir, production, publicPath: 'auto' }),
    plugins: [
      new ModuleFederationPlugin(federationConfig),
      // Product and category pictures ship with the remote: the catalogue names them relative to
      // its public path (docs/catalogue.md), so they deploy and version with it.
      new CopyWebpackPlugin({ patterns: [{ from: fromHere('public/images'), to: 'images' }] }),
      // Only the dev server needs a page; the deployed remote is just remoteEntry.js + chunks.
      ...(production ? [] : [new HtmlWebpackPlugin({ template: fromHere('public/index.html') })]),
    ],
    devServer: {
      port: DEV_PORT,
      host: 'localhost',
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: apiProxy(),
    },
  };
};
