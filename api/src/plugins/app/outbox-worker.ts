import fp from 'fastify-plugin';
import { createOutboxWorker } from '../../identity/provisioning';
import { createLtiScoreHandler, LTI_SCORE_KIND } from '../../lti/grade-passback';
import { createToolKeys } from '../../lti/tool-keys';
import { createOutboundClient, outboundPolicyFor } from '../../lib/outbound-http';

declare module 'fastify' {
  interface FastifyInstance {
    outboxWorker: {
      /**
       * Look for work now (called after a commit that added some, so an invitation goes out
       * within a moment instead of at the next poll). Does nothing without a worker.
       */
      kick(): void;
      /** Resolves when the current run (if any) has finished; for tests and shutdown. */
      idle(): Promise<void>;
    };
  }
}

/**
 * Runs the outbox (design §7) in this process: every OUTBOX_POLL_SECONDS and whenever kicked.
 * Several API processes may run it against one PostgreSQL; the claim query shares the items out.
 * Grades (`lti.score`) always go out; identity items only with an identity provider configured.
 */
export const outboxWorkerPlugin = fp(
  async (app) => {
    const { config, identityAdmin } = app;
    if (config.outboxPollMs <= 0) {
      app.decorate('outboxWorker', { kick: () => undefined, idle: async () => undefined });
      return;
    }
    const toolKeys = createToolKeys(app.db);
    const outbound = createOutboundClient({ policy: outboundPolicyFor(config.portalUrl) });
    const worker = createOutboxWorker({
      db: app.db,
      identityAdmin,
      handlers: {
        [LTI_SCORE_KIND]: createLtiScoreHandler({ db: app.db, toolKeys, log: app.log, outbound }),
      },
      log: app.log,
    });
    let running: Promise<void> | null = null;
    let again = false;
    let closed = false;

    const kick = () => {
      if (closed) return;
      // A kick during a run asks for one more round after it, which sees the new items.
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          const result = await worker.drain();
          if (result.done + result.failed > 0) app.log.info(result, 'outbox round');
        } while (again && !closed);
      })()
        .catch((err: unknown) => {
          app.log.error({ err }, 'outbox worker failed');
        })
        .finally(() => {
          running = null;
        });
    };

    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(kick, config.outboxPollMs);
      // The worker never keeps the process alive on its own.
      timer.unref();
      kick();
    });
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(timer);
      // The database closes after this hook; a run in flight finishes first (its items' leases
      // would otherwise make them wait a minute in the next process).
      await running;
      await outbound.close();
    });
    app.decorate('outboxWorker', { kick, idle: async () => void (await running) });
  },
  { name: 'outbox-worker', dependencies: ['config', 'db', 'identity-admin'] },
);
