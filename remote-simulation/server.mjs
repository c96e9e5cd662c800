// Serves the built remote on its own origin; CORS lets any host page load its remoteEntry.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '@portal/static-server';

const raw = process.env.PORT ?? '8081';
const port = Number(raw);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${raw}"`);

await startStaticServer({
  name: 'remote-simulation',
  root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist'),
  port,
  host: process.env.HOST_LISTEN ?? 'localhost',
  cors: true,
});
