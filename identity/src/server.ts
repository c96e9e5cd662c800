import pino from 'pino';
import { closeOnSignals, createLifecycle, loadOrExit, logOptions } from '@portal/service-kit';

import { loadConfig } from './config';

const config = loadOrExit(() => loadConfig());
// As in the API: the SDK must patch http before the provider loads it, and is not loaded at all
// without a collector.
const tracing = config.otlpEndpoint
  ? await (await import('@portal/tracing')).startTracing({ serviceName: 'portal-identity', endpoint: config.otlpEndpoint })
  : null;
const { OUTBOX_PATH, startIdentityApp } = await import('./app');
const { generateSigningJwks, loadOrCreateSigningJwks } = await import('./oidc/signing-keys');
const lifecycle = createLifecycle();
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
  identityProviders: config.identityProviders,
  metricsToken: config.metricsToken,
  lifecycle,
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
    identityProviders: config.identityProviders.map((idp) => idp.alias),
    // The address only: the URL may carry the SMTP password.
    mail: config.smtpUrl ? `smtp ${new URL(config.smtpUrl).host}` : `outbox ${app.url}${OUTBOX_PATH}`,
  },
  'identity provider listening',
);

closeOnSignals(
  { logger, lifecycle, drainDelay: config.shutdownDrainMs, delay: config.shutdownGraceMs },
  async () => {
    await app.close();
    await tracing?.shutdown();
  },
);
