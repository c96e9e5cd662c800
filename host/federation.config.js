// The host's one federation config. Remote locations are NOT listed here: the browser learns them
// from /config.json at run time (src/federation/remotes.ts), so a remote redeploys on its own
// without rebuilding the host. What every app shares is in tools/build/app-config.mjs.
import { fileURLToPath } from 'node:url';
import { federationDefaults } from '../tools/build/app-config.mjs';

export const federationConfig = {
  ...federationDefaults(fileURLToPath(new URL('.', import.meta.url))),
  name: 'host',
  remotes: {},
  runtimePlugins: [],
};
