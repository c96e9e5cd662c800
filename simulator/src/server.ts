import { buildSimulatorApp } from './app';
import { config } from './config';

const app = buildSimulatorApp({ logger: { level: config.logLevel, name: 'simulator' } });
const close = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
await app.listen({ port: config.port, host: config.host });
