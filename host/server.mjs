// Serves the built host: SPA fallback, /config.json from the environment, /api proxied to the API.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineScriptHashes, loadOrExit, startStaticServer } from '@portal/static-server';
import { hostContentSecurityPolicy, readServerConfig, toRuntimeConfig } from './server-config.mjs';

const config = loadOrExit(() => readServerConfig());
const runtimeConfig = toRuntimeConfig(config);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist');
const csp = hostContentSecurityPolicy(config);

await startStaticServer({
  name: 'host',
  root,
  port: config.port,
  host: config.listenHost,
  trustProxy: config.trustProxy,
  spa: true,
  configJson: () => runtimeConfig,
  proxy: { prefix: '/api', upstream: config.apiUrl },
  csp,
  cspByPath: {
    // The identity provider's prompt=none answer lands here inside the portal's own hidden
    // iframe; its one inline script hands the answer to the portal window.
    '/silent-check-sso.html': {
      frameAncestors: ["'self'"],
      scriptSrc: [...csp.scriptSrc, ...inlineScriptHashes(path.join(root, 'silent-check-sso.html'))],
    },
  },
});
