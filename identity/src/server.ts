import pino from 'pino';
import { closeOnSignals, loadOrExit } from '@portal/service-kit';

import { startIdentityApp } from './app';
import { loadConfig } from './config';
import { generateSigningJwks, loadOrCreateSigningJwks } from './signing-keys';

const config = loadOrExit(() => loadConfig());
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

closeOnSignals({ logger }, () => app.close());
