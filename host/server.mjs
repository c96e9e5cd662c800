// Serves the built host: SPA fallback, /config.json from the environment, /api proxied to the API.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineScriptHashes, loadOrExit, startStaticServer } from '@portal/static-server';
import { hostCspOverrides } from './csp-overrides.mjs';
import { createLtiFrameAncestors } from './lti-frame-ancestors.mjs';
import { hostContentSecurityPolicy, readServerConfig, toRuntimeConfig } from './server-config.mjs';

const config = loadOrExit(() => readServerConfig());
const runtimeConfig = toRuntimeConfig(config);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist');
const csp = hostContentSecurityPolicy(config);
let log = null;
const ltiFrameAncestors = createLtiFrameAncestors({
  apiUrl: config.apiUrl,
  onError: (error) => log?.warn({ err: error }, 'LTI frame origins not refreshed'),
});

const app = await startStaticServer({
  name: 'host',
  root,
  port: config.port,
  host: config.listenHost,
  trustProxy: config.trustProxy,
  metricsToken: config.metricsToken,
  spa: true,
  configJson: () => runtimeConfig,
  proxy: { prefix: '/api', upstream: config.apiUrl },
  csp,
  ...hostCspOverrides({
    csp,
    silentCheckScriptHashes: inlineScriptHashes(path.join(root, 'silent-check-sso.html')),
    ltiFrameAncestors,
  }),
});
log = app.log;
await ltiFrameAncestors.keepFresh();
