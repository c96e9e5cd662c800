import fp from 'fastify-plugin';
import { runLicenseExpiry } from '../../jobs/license-expiry';

/**
 * The daily licence expiry job, in every API process: each looks every
 * LICENSE_EXPIRY_CHECK_SECONDS (and once when the app is ready) whether today's run is due; the
 * job's row lock lets exactly one process do it per day (jobs/license-expiry.ts).
 */
export const licenseExpiryPlugin = fp(
  async (app) => {
    const every = app.config.licenseExpiryCheckMs;
    if (every === 0) return;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | null = null;
    const check = () => {
      running ??= runLicenseExpiry(app.db)
        .then((run) => {
          if (run.ran) app.log.info({ day: run.day, expired: run.expired }, 'licence expiry ran');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'licence expiry failed'))
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
  { name: 'license-expiry', dependencies: ['config', 'db'] },
);
