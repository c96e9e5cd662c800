// Serves the built remote on its own origin (by default on its port in the remote manifest);
// CORS lets any host page load its remoteEntry.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Env, LISTEN_ENV, loadOrExit, readEnv, startStaticServer, Type } from '@portal/static-server';
import { remoteManifest } from '../tools/build/remote-manifest.mjs';

const { devPort } = remoteManifest('admin');

const env = loadOrExit(() => readEnv(Type.Object({ PORT: Env.Port(devPort), ...LISTEN_ENV })));

await startStaticServer({
  name: 'remote-admin',
  root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist'),
  port: env.PORT,
  host: env.HOST_LISTEN,
  trustProxy: env.TRUST_PROXY,
  metricsToken: env.METRICS_TOKEN,
  cors: true,
});
