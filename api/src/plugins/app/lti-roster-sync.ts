import fp from 'fastify-plugin';
import { scheduleJob } from '../../jobs/schedule-job';
import { runDailyRosterSync } from '../../services/lti/roster-sync-daily';

/**
 * The daily LTI roster resync (issue #22 point 4), in every API process: each looks every
 * LTI_ROSTER_SYNC_CHECK_SECONDS (and once when the app is ready) whether today's run is due; the
 * job's row lock lets exactly one process queue it per day. The outbox worker does the syncs.
 */
export const ltiRosterSyncPlugin = fp(
  async (app) => {
    scheduleJob(app, {
      name: 'lti_roster_sync',
      everyMs: app.config.ltiRosterSyncCheckMs,
      runWhenReady: true,
      run: async (now) => {
        const run = await runDailyRosterSync(app.db, now);
        if (!run.ran) return;
        app.log.info({ day: run.day, courses: run.result.length }, 'daily roster sync queued');
        if (run.result.length > 0) app.outboxWorker.kick();
      },
      onError: (error) => app.log.error({ err: error }, 'daily roster sync failed'),
    });
  },
  { name: 'lti-roster-sync', dependencies: ['config', 'clock', 'db', 'outbox-worker'] },
);
