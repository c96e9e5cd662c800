// This remote's one federation config: its name is its key in the remote manifest
// (contract/src/remotes.json); what every remote shares is in tools/build/app-config.mjs.
import { remoteFederationConfig } from '../tools/build/app-config.mjs';

export const federationConfig = remoteFederationConfig(import.meta.dirname, 'admin');
