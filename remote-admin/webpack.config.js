// Everything but this remote's own facts is in tools/build/app-config.mjs; its dev port and
// namespace are in the remote manifest (contract/src/remotes.json).
import { remoteWebpackConfig } from '../tools/build/app-config.mjs';
import { federationConfig } from './federation.config.js';

export default remoteWebpackConfig({ dir: import.meta.dirname, federationConfig });
