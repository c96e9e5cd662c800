import { closeOnSignals, createLifecycle, loadOrExit } from '@portal/service-kit';
import { buildLmsApp } from './app';
import { loadConfig } from './config';

const config = loadOrExit(() => loadConfig());

const lifecycle = createLifecycle();
const app = await buildLmsApp({
  metricsToken: config.metricsToken,
  lifecycle,
  publicUrl: config.publicUrl,
  portalUrl: config.portalUrl,
  toolJwksUrl: config.toolJwksUrl,
  clientId: config.clientId,
  deploymentId: config.deploymentId,
  brightspaceClientId: config.brightspaceClientId,
  brightspaceClientSecret: config.brightspaceClientSecret,
  frameOrigins: config.frameOrigins,
  testEndpoints: config.testEndpoints,
  dataDir: config.dataDir,
  logger: { level: config.logLevel, name: 'lms' },
});

closeOnSignals({ logger: app.log, lifecycle }, () => app.close());

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ issuer: config.publicUrl, portalUrl: config.portalUrl, testEndpoints: config.testEndpoints }, 'learning platform stand-in ready');
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await app.close().catch(() => undefined);
  process.exit(1);
}
