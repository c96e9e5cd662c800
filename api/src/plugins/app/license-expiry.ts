import fp from 'fastify-plugin';
import { runLicenseExpiry } from '../../jobs/license-expiry';
import { scheduleJob } from '../../jobs/schedule-job';

/**
 * The daily licence expiry job, in every API process: each looks every
 * LICENSE_EXPIRY_CHECK_SECONDS (and once when the app is ready) whether today's run is due; the
 * job's row lock lets exactly one process do it per day (jobs/daily-claim.ts).
 */
export const licenseExpiryPlugin = fp(
  async (app) => {
    scheduleJob(app, {
      name: 'license_expiry',
      everyMs: app.config.licenseExpiryCheckMs,
      runWhenReady: true,
      run: async (now) => {
        const run = await runLicenseExpiry(app.db, now);
        if (run.ran) app.log.info({ day: run.day, expired: run.expired }, 'licence expiry ran');
      },
      onError: (error) => app.log.error({ err: error }, 'licence expiry failed'),
    });
  },
  { name: 'license-expiry', dependencies: ['config', 'clock', 'db'] },
);
