import fp from 'fastify-plugin';
import { seedDemoDownloads } from '../../demo/downloads';

/**
 * Demo installers need the database and the file storage together, so they are seeded here,
 * after both plugins, rather than with the rest of the demo data in the db plugin.
 */
export const demoDownloadsPlugin = fp(
  async (app) => {
    if (!app.config.seedDemo) return;
    const added = await seedDemoDownloads(app.db, app.storage);
    if (added > 0) app.log.info({ added }, 'demo installers seeded');
  },
  { name: 'demo-downloads', dependencies: ['config', 'db', 'storage'] },
);
