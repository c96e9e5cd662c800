// Serves the built host: SPA fallback, /config.json from the environment, /api proxied to the API.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '@portal/static-server';
import { readServerConfig, toRuntimeConfig } from './server-config.mjs';

const config = readServerConfig();
const runtimeConfig = toRuntimeConfig(config);

await startStaticServer({
  name: 'host',
  root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist'),
  port: config.port,
  host: config.listenHost,
  spa: true,
  configJson: () => runtimeConfig,
  proxy: { prefix: '/api', upstream: config.apiUrl },
  frameAncestorsSelf: ['/silent-check-sso.html'],
});
