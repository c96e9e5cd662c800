import { closeOnSignals, createLifecycle, loadOrExit } from '@portal/service-kit';
import { buildSimulatorApp } from './app';
import { loadConfig } from './config';

const config = loadOrExit(() => loadConfig());

const lifecycle = createLifecycle();
const app = await buildSimulatorApp({
  apiUrl: config.apiUrl,
  logger: { level: config.logLevel, name: 'simulator' },
  ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
  lifecycle,
});

closeOnSignals({ logger: app.log, lifecycle }, () => app.close());

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ apiUrl: config.apiUrl }, 'simulator ready');
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await app.close().catch(() => undefined);
  process.exit(1);
}
