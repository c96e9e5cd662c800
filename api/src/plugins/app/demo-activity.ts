import fp from 'fastify-plugin';
import { seedDemoActivity, type DemoActivityResult } from '../../demo/demo-activity';

declare module 'fastify' {
  interface FastifyInstance {
    /** The demo activity seed of this start; null when SEED_DEMO_ACTIVITY is off. */
    demoActivity: Promise<DemoActivityResult> | null;
  }
}

/**
 * SEED_DEMO_ACTIVITY: the demo cohort, licences and ~300 reports with images. Started once the
 * app is ready and not awaited, so the API answers (and /healthz passes) while it runs: the first
 * start renders and stores images for a few seconds; later starts find the seed done and stop at
 * one query. Closing the app stops it between two reports; the next start resumes.
 */
export const demoActivityPlugin = fp(
  async (app) => {
    app.decorate('demoActivity', null);
    if (!app.config.seedDemo || !app.config.seedDemoActivity) return;
    const abort = new AbortController();
    app.addHook('onReady', async () => {
      const started = performance.now();
      let logged = 0;
      const seed = async () => {
        // Begun on the next turn of the event loop, once `listen` has bound the port.
        await new Promise((resolve) => setImmediate(resolve));
        return seedDemoActivity(app.db, app.storage, {
          signal: abort.signal,
          onProgress(done, total) {
            if (done - logged >= 100 || done === total) {
              logged = done;
              app.log.info({ done, total }, 'demo activity: reports seeded');
            }
          },
        });
      };
      app.demoActivity = seed().then(
        (result) => {
          if (result.seeded) {
            app.log.info(
              { ...result, ms: Math.round(performance.now() - started) },
              'demo activity seeded',
            );
          }
          return result;
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'demo activity could not be seeded');
          throw error;
        },
      );
      // Failure is logged above; an unobserved rejection must not end the process.
      app.demoActivity.catch(() => undefined);
    });
    app.addHook('onClose', async () => {
      abort.abort();
      await app.demoActivity?.catch(() => undefined);
    });
  },
  { name: 'demo-activity', dependencies: ['config', 'db', 'storage', 'demo-downloads'] },
);
