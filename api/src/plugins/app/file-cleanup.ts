import fp from 'fastify-plugin';
import { runFileCleanup } from '../../jobs/file-cleanup';
import { scheduleJob } from '../../jobs/schedule-job';

/**
 * The daily file clean-up, in every API process: each looks every FILE_CLEANUP_CHECK_SECONDS
 * (and once when the app is ready) whether today's run is due; the job's row lock lets exactly
 * one process do it per day (jobs/daily-claim.ts).
 */
export const fileCleanupPlugin = fp(
  async (app) => {
    scheduleJob(app, {
      name: 'file_cleanup',
      everyMs: app.config.fileCleanupCheckMs,
      runWhenReady: true,
      run: async (now) => {
        const run = await runFileCleanup(app.db, app.storage, now, (key, error) =>
          app.log.warn({ err: error, key }, 'file clean-up could not remove stored bytes'),
        );
        if (run.ran)
          app.log.info({ day: run.day, removed: run.removed.length }, 'file clean-up ran');
      },
      onError: (error) => app.log.error({ err: error }, 'file clean-up failed'),
    });
  },
  { name: 'file-cleanup', dependencies: ['config', 'clock', 'db', 'storage'] },
);
