import fp from 'fastify-plugin';
import { seedDemoConfigurations } from '../../demo/configurations';

/**
 * Demo configurations need the database and the file storage together (their files are stored
 * like uploads), so they are seeded here, after both plugins, as the demo installers are.
 */
export const demoConfigurationsPlugin = fp(
  async (app) => {
    if (!app.config.seedDemo) return;
    const added = await seedDemoConfigurations(app.db, app.storage);
    if (added > 0) app.log.info({ added }, 'demo product configurations seeded');
  },
  { name: 'demo-configurations', dependencies: ['config', 'db', 'storage'] },
);
