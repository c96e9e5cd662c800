import fp from 'fastify-plugin';
import { createDb } from '../../db/create-db';
import type { Db } from '../../db/driver';
import { migrate } from '../../db/migrate';
import { timedDb } from '../../metrics/timed-db';
import { seedDemoData } from '../../demo/seed-demo-data';
import { seedReferenceData } from '../../reference/seed-reference-data';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export interface DbPluginOptions {
  /** A ready database (tests); otherwise one is opened from the config. Closed with the app either way. */
  db?: Db;
}

export const dbPlugin = fp<DbPluginOptions>(
  async (app, options) => {
    const db = options.db ?? (await createDb(app.config));
    app.addHook('onClose', async () => {
      await db.close();
    });
    const applied = await migrate(db);
    if (applied.length > 0) app.log.info({ applied, kind: db.kind }, 'database migrated');
    await seedReferenceData(db);
    if (app.config.seedDemo) await seedDemoData(db);
    // Statements are timed for /metrics from here on; migrations and seeds above are not.
    app.decorate('db', timedDb(db, app.metrics));
  },
  { name: 'db', dependencies: ['config', 'metrics'] },
);
