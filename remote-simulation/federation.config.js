// This remote's one federation config; what every app shares is in tools/build/app-config.mjs.
import { fileURLToPath } from 'node:url';
import { federationDefaults } from '../tools/build/app-config.mjs';

export const REMOTE_NAME = 'simulation';

export const federationConfig = {
  ...federationDefaults(fileURLToPath(new URL('.', import.meta.url))),
  name: REMOTE_NAME,
  filename: 'remoteEntry.js',
  exposes: { './routes': './src/routes.tsx' },
};
