// Serves the built remote on its own origin (by default on its port in the remote manifest);
// CORS lets any host page load its remoteEntry.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Env, LISTEN_ENV, loadOrExit, readEnv, startStaticServer, Type } from '@portal/static-server';
import { remoteManifest } from '../tools/build/remote-manifest.mjs';

const { devPort } = remoteManifest('reports');

// REMOTE_ROOT: a release folder other than the build's dist/ (a deployment that keeps releases side
// by side; the e2e redeploy test serves a new release this way).
const env = loadOrExit(() =>
  readEnv(Type.Object({ PORT: Env.Port(devPort), REMOTE_ROOT: Type.Optional(Type.String({ minLength: 1 })), ...LISTEN_ENV })),
);
const here = path.dirname(fileURLToPath(import.meta.url));

await startStaticServer({
  name: 'remote-reports',
  root: env.REMOTE_ROOT ? path.resolve(env.REMOTE_ROOT) : path.join(here, 'dist'),
  port: env.PORT,
  host: env.HOST_LISTEN,
  trustProxy: env.TRUST_PROXY,
  metricsToken: env.METRICS_TOKEN,
  cors: true,
});
