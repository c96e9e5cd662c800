import fp from 'fastify-plugin';
import { runOutboxCleanup } from '../../jobs/outbox-cleanup';
import { scheduleJob } from '../../jobs/schedule-job';
import { MARK_EVIDENCE_KIND } from '../../services/sessions/mark-evidence';

/**
 * Kinds whose finished rows nothing reads again. Not the identity kinds: a later step of an
 * account reads the `progress` of its finished creation (identity/account-handlers.ts), and an
 * invitation's recency comes from its row. Image markings are the ones that grow with use: one
 * row per evidence image.
 */
export const CLEANED_KINDS: readonly string[] = [MARK_EVIDENCE_KIND];

/**
 * The daily outbox clean-up, in every API process: each looks every OUTBOX_CLEANUP_CHECK_SECONDS
 * (and once when the app is ready) whether today's run is due; the job's row lock lets exactly
 * one process do it per day (jobs/daily-claim.ts).
 */
export const outboxCleanupPlugin = fp(
  async (app) => {
    scheduleJob(app, {
      name: 'outbox_cleanup',
      everyMs: app.config.outboxCleanupCheckMs,
      runWhenReady: true,
      run: async (now) => {
        const run = await runOutboxCleanup(app.db, CLEANED_KINDS, now);
        if (run.ran) app.log.info({ day: run.day, removed: run.result }, 'outbox clean-up ran');
      },
      onError: (error) => app.log.error({ err: error }, 'outbox clean-up failed'),
    });
  },
  { name: 'outbox-cleanup', dependencies: ['config', 'clock', 'db'] },
);
