import pino from 'pino';

import { startIdentityApp } from './app';
import { loadConfig } from './config';
import { generateSigningJwks, loadOrCreateSigningJwks } from './signing-keys';

const config = loadConfig();
const logger = pino({ name: 'identity', level: config.logLevel });

const jwks = config.dataDir ? await loadOrCreateSigningJwks(config.dataDir) : await generateSigningJwks();
const app = await startIdentityApp({
  port: config.port,
  host: config.host,
  issuer: config.issuer,
  frontendOrigins: config.frontendOrigins,
  accessTokenTtl: config.accessTokenTtl,
  cookieKeys: config.cookieKeys,
  jwks,
  logger,
});
logger.info(
  { url: app.url, issuer: app.issuer, frontendOrigins: config.frontendOrigins, keysPersisted: Boolean(config.dataDir) },
  'identity provider listening',
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
