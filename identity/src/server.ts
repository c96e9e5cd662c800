import pino from 'pino';
import { closeOnSignals, loadOrExit, logOptions } from '@portal/service-kit';

import { OUTBOX_PATH, startIdentityApp } from './app';
import { loadConfig } from './config';
import { generateSigningJwks, loadOrCreateSigningJwks } from './oidc/signing-keys';

const config = loadOrExit(() => loadConfig());
const logger = pino(logOptions({ name: 'identity', level: config.logLevel }));

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
  dataDir: config.dataDir,
  ...(config.serviceClientSecret ? { serviceClientSecret: config.serviceClientSecret } : {}),
  ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
  mailFrom: config.mailFrom,
  productName: config.productName,
  devMode: config.devMode,
  seedDemo: config.seedDemo,
});
logger.info(
  {
    url: app.url,
    issuer: app.issuer,
    frontendOrigins: config.frontendOrigins,
    dataPersisted: Boolean(config.dataDir),
    adminApi: Boolean(config.serviceClientSecret),
    devMode: config.devMode,
    demoAccounts: config.seedDemo,
    // The address only: the URL may carry the SMTP password.
    mail: config.smtpUrl ? `smtp ${new URL(config.smtpUrl).host}` : `outbox ${app.url}${OUTBOX_PATH}`,
  },
  'identity provider listening',
);

closeOnSignals({ logger }, () => app.close());
