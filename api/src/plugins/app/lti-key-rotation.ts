import fp from 'fastify-plugin';
import { runLtiKeyRotation } from '../../jobs/lti-key-rotation';
import { scheduleJob } from '../../jobs/schedule-job';

/**
 * The scheduled LTI tool key rotation, in every API process: each looks every
 * LTI_KEY_ROTATION_CHECK_SECONDS (and once when the app is ready) whether today's check is due;
 * the job's row lock lets exactly one process do it per day (jobs/daily-claim.ts).
 */
export const ltiKeyRotationPlugin = fp(
  async (app) => {
    scheduleJob(app, {
      name: 'lti_key_rotation',
      everyMs: app.config.ltiKeyRotationCheckMs,
      runWhenReady: true,
      run: async (now) => {
        const run = await runLtiKeyRotation(app.db, now);
        if (run.ran && run.result.rotated) {
          app.log.info(
            { kid: run.result.kid, signsFrom: run.result.signsFrom, replaces: run.result.replaces },
            'LTI tool key rotation: next key published',
          );
        }
      },
      onError: (error) => app.log.error({ err: error }, 'LTI tool key rotation failed'),
    });
  },
  { name: 'lti-key-rotation', dependencies: ['config', 'clock', 'db'] },
);
