import fp from 'fastify-plugin';
import { runFileCleanup } from '../../jobs/file-cleanup';

/**
 * The daily file clean-up, in every API process: each looks every FILE_CLEANUP_CHECK_SECONDS
 * (and once when the app is ready) whether today's run is due; the job's row lock lets exactly
 * one process do it per day (jobs/file-cleanup.ts).
 */
export const fileCleanupPlugin = fp(
  async (app) => {
    const every = app.config.fileCleanupCheckMs;
    if (every === 0) return;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | null = null;
    const check = () => {
      running ??= runFileCleanup(app.db, app.storage, new Date(), (key, error) =>
        app.log.warn({ err: error, key }, 'file clean-up could not remove stored bytes'),
      )
        .then((run) => {
          if (run.ran) app.log.info({ day: run.day, removed: run.removed.length }, 'file clean-up ran');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'file clean-up failed'))
        .finally(() => {
          running = null;
        });
    };
    app.addHook('onReady', async () => {
      check();
      timer = setInterval(check, every);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'file-cleanup', dependencies: ['config', 'db', 'storage'] },
);
