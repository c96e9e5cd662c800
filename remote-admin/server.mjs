// Serves the built remote on its own origin; CORS lets any host page load its remoteEntry.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Env, LISTEN_ENV, loadOrExit, readEnv, startStaticServer, Type } from '@portal/static-server';

const env = loadOrExit(() => readEnv(Type.Object({ PORT: Env.Port(8083), ...LISTEN_ENV })));

await startStaticServer({
  name: 'remote-admin',
  root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist'),
  port: env.PORT,
  host: env.HOST_LISTEN,
  trustProxy: env.TRUST_PROXY,
  cors: true,
});
