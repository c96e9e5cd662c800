// Everything but this remote's own facts is in tools/build/app-config.mjs.
import { remoteWebpackConfig } from '../tools/build/app-config.mjs';
import { federationConfig } from './federation.config.js';

export default remoteWebpackConfig({
  dir: import.meta.dirname,
  federationConfig,
  devPort: 8082,
  namespace: 'reports',
});
