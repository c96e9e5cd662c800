import { closeOnSignals, loadOrExit } from '@portal/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadOrExit(() => loadConfig());

const app = await buildApp({ config });

closeOnSignals({ logger: app.log }, () => app.close());

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await app.close().catch(() => undefined);
  process.exit(1);
}
